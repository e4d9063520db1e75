package mail_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/pitlane/pitlane/internal/mail"
	"github.com/pitlane/pitlane/internal/testkit"
)

func TestSMTPSenderDelivers(t *testing.T) {
	mb := testkit.NewMailbox(t)
	s, err := mail.New(mb.URL(), "Pitlane <no-reply@localhost>", slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	err = s.Send(context.Background(), mail.Message{To: "ace@example.com", Subject: "Code", Text: "Your Pitlane verification code is 123456\n"})
	if err != nil {
		t.Fatal(err)
	}
	if got := mb.OTP(t, "ace@example.com", 1); got != "123456" {
		t.Fatalf("code %q", got)
	}
}

// Send errors are logged, so they must not name the recipient, though
// go-mail lists it and the server echoes it.
func TestSMTPSenderErrorsNameNoAddress(t *testing.T) {
	mb := testkit.NewMailbox(t)
	mb.Refuse(true)
	s, err := mail.New(mb.URL(), "Pitlane <no-reply@localhost>", slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	err = s.Send(context.Background(), mail.Message{To: "secret.player@example.com", Subject: "Code", Text: "x"})
	if err == nil {
		t.Fatal("a refusing server accepted the mail")
	}
	if strings.Contains(err.Error(), "secret.player") || strings.Contains(err.Error(), "example.com") {
		t.Fatalf("error names the address: %v", err)
	}
	if !strings.Contains(err.Error(), "451") {
		t.Fatalf("error lost the server's reply: %v", err)
	}
}

// Production without SMTP_URL: nothing is sent, and the log names neither
// the address nor the code.
func TestUnsentLogsNoAddressOrCode(t *testing.T) {
	var logs strings.Builder
	u := mail.Unsent{Log: slog.New(slog.NewJSONHandler(&logs, nil))}
	err := u.Send(context.Background(), mail.Message{To: "secret.player@example.com", Subject: "Your code", Text: "code is 123456"})
	if err == nil {
		t.Fatal("Unsent reported a mail as sent")
	}
	if strings.Contains(logs.String(), "secret.player") || strings.Contains(logs.String(), "123456") {
		t.Fatalf("log leaks: %s", logs.String())
	}
}
