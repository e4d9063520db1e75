package redisconn

import (
	"strings"
	"testing"
)

func TestATargetIsAURLOrSentinelsWithTheirPrimarysName(t *testing.T) {
	for _, tc := range []struct {
		name   string
		target Target
		want   string // part of the error; "" for none
	}{
		{"nothing", Target{}, ""},
		{"a url", Target{URL: "redis://127.0.0.1:6379/0"}, ""},
		{"sentinels", Target{Sentinels: []string{"10.0.0.1:26379", "10.0.0.2:26379"}, MasterName: "pitlane"}, ""},
		{"sentinels and a url for the database", Target{URL: "redis://:secret@ignored/2", Sentinels: []string{"s:26379"}, MasterName: "pitlane"}, ""},
		{"sentinels without a name", Target{Sentinels: []string{"s:26379"}}, "REDIS_MASTER_NAME is required"},
		{"a name without sentinels", Target{MasterName: "pitlane"}, "REDIS_SENTINELS is required"},
		{"a sentinel without a port", Target{Sentinels: []string{"s"}, MasterName: "pitlane"}, `"s" is not host:port`},
		{"not a redis url", Target{URL: "http://x"}, "REDIS_URL is not a redis:// URL"},
	} {
		err := tc.target.Check()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}

func TestSentinelsGiveAFailoverClientWithTheURLsDatabase(t *testing.T) {
	rdb, err := Target{URL: "redis://:secret@ignored/2", Sentinels: []string{"127.0.0.1:1"}, MasterName: "pitlane"}.Client(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	if o := rdb.Options(); o.Addr != "FailoverClient" || o.DB != 2 || o.Password != "secret" {
		t.Fatalf("options = addr %q, db %d; want the failover client on database 2 with the URL's password", o.Addr, o.DB)
	}
	if _, err := (Target{}).Client(nil); err == nil {
		t.Fatal("a client of no Redis was made")
	}
}
