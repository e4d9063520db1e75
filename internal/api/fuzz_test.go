package api

import (
	"strings"
	"testing"

	"github.com/pitlane/pitlane/internal/accounts"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/stats"
)

// fuzzDecoder checks a request decoder never panics and answers either
// success or a user-facing Invalid/TooLarge error.
func fuzzDecoder[T any](f *testing.F, seeds ...string) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		var dst T
		err := decodeJSON(strings.NewReader(body), &dst)
		if err == nil {
			return
		}
		if k := errs.KindOf(err); k != errs.Invalid && k != errs.TooLarge {
			t.Fatalf("decode %q: kind %s (%v)", body, k, err)
		}
	})
}

func FuzzDecodeSignup(f *testing.F) {
	fuzzDecoder[accounts.SignupInput](f, `{"email":"a@b.co","password":"p","confirmPassword":"p","discordUsername":"d"}`,
		`{"email":1}`, `[]`, `{"x":1}`, `{"email":"a"} {}`, "")
}
func FuzzDecodeVerifyOTP(f *testing.F) {
	fuzzDecoder[emailOTP](f, `{"email":"a@b.co","otp":"123456"}`, `{"otp":123456}`)
}
func FuzzDecodeResendOTP(f *testing.F) {
	fuzzDecoder[emailOnly](f, `{"email":"a@b.co"}`, `{"email":null}`)
}
func FuzzDecodeLogin(f *testing.F) {
	fuzzDecoder[credentials](f, `{"email":"a@b.co","password":"x"}`, `{"password":["x"]}`)
}
func FuzzDecodeGoogleLogin(f *testing.F) {
	fuzzDecoder[googleCredential](f, `{"credential":"eyJ..."}`, `{"googleId":"1","email":"a@b.co"}`)
}
func FuzzDecodeDiscord(f *testing.F) {
	fuzzDecoder[discordInput](f, `{"discordUsername":"racer"}`, `{"discordUsername":{}}`)
}
func FuzzDecodePasswordChange(f *testing.F) {
	fuzzDecoder[passwordChange](f, `{"currentPassword":"a","newPassword":"b","confirmPassword":"b"}`)
}
func FuzzDecodeStats(f *testing.F) {
	fuzzDecoder[stats.SaveInput](f, `{"sk_id":123,"level":1,"kills":2,"deaths":3,"games_played":4,"kd":0.5,"cart_image":null,"description":"","category":1,"preferred_role":"Player"}`,
		`{"sk_id":"#12","kd":"x"}`, `{"sk_id":1e400}`, `{"level":1.5}`)
}
func FuzzDecodeTournament(f *testing.F) {
	fuzzDecoder[tournamentName](f, `{"tournamentName":"PPL7"}`, `{}`)
}
func FuzzDecodeStatus(f *testing.F) { fuzzDecoder[statusInput](f, `{"status":"auction"}`) }
func FuzzDecodeSlide(f *testing.F)  { fuzzDecoder[slideInput](f, `{"slide":3}`, `{"slide":-1}`) }

// FuzzSaveInputRecord checks the stats rules accept or refuse cleanly.
func FuzzSaveInputRecord(f *testing.F) {
	f.Add(1, 2, 3, 4, 0.5, 2, "12345", "desc")
	f.Add(-1, 0, 0, 0, -3.0, 9, "N/A", strings.Repeat("x", 600))
	f.Fuzz(func(t *testing.T, level, kills, deaths, games int, kd float64, category int, skID, desc string) {
		in := stats.SaveInput{SkID: stats.FlexString(skID), Level: level, Kills: kills, Deaths: deaths, GamesPlayed: games,
			KD: kd, Category: category, Description: desc}
		rec, err := in.Record(false)
		if err != nil {
			if errs.KindOf(err) != errs.Invalid {
				t.Fatalf("kind %s", errs.KindOf(err))
			}
			return
		}
		if rec.Validate() != nil || rec.Category < 1 || rec.Category > 4 {
			t.Fatalf("accepted an invalid record %+v", rec)
		}
	})
}
