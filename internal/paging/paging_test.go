package paging_test

import (
	"testing"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/paging"
)

func TestACursorReadsBackTheKeyItWasMadeOf(t *testing.T) {
	k := paging.Key{Text: "2026-11-28T04:11:29.857464Z", Num: 2.5, ID: 101}
	got, err := paging.Decode(k.Encode())
	if err != nil || *got != k {
		t.Fatalf("%v %v", got, err)
	}
}

func TestParse(t *testing.T) {
	r, err := paging.Parse("", "", "  turbo ")
	if err != nil || r.Limit != paging.Default || r.After != nil || r.Q != "turbo" {
		t.Fatalf("%+v %v", r, err)
	}
	for _, bad := range []struct{ limit, cursor, q string }{
		{"0", "", ""}, {"501", "", ""}, {"ten", "", ""}, {"", "not-a-cursor", ""}, {"", "e30", ""}, // {} has no id
		{"", "", "0123456789012345678901234567890123456789x"},
	} {
		if _, err := paging.Parse(bad.limit, bad.cursor, bad.q); errs.KindOf(err) != errs.Invalid {
			t.Fatalf("%+v: %v", bad, err)
		}
	}
}

func TestNextOnlyWhenMoreFollow(t *testing.T) {
	if paging.Next(false, paging.Key{ID: 3}) != nil {
		t.Fatal("a cursor after the last page")
	}
	if c := paging.Next(true, paging.Key{ID: 3}); c == nil || *c == "" {
		t.Fatal("no cursor before the next page")
	}
}

func TestSliceWalksAFixedList(t *testing.T) {
	rows := []int64{5, 3, 9, 1, 7}
	id := func(x int64) int64 { return x }
	var got []int64
	req := paging.Request{Limit: 2}
	for {
		page, next, err := paging.Slice(rows, id, req)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, page...)
		if next == nil {
			break
		}
		req.After, _ = paging.Decode(*next)
	}
	if len(got) != 5 || got[0] != 5 || got[4] != 7 {
		t.Fatalf("%v", got)
	}
	if _, _, err := paging.Slice(rows, id, paging.Request{Limit: 2, After: &paging.Key{ID: 42}}); errs.KindOf(err) != errs.Invalid {
		t.Fatalf("a cursor off the list: %v", err)
	}
}
