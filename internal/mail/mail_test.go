package mail_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

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

// slowMailer takes a while over each mail and counts them.
type slowMailer struct {
	release chan struct{}
	sent    atomic.Int32
}

func (m *slowMailer) Send(ctx context.Context, _ mail.Message) error {
	select {
	case <-m.release:
	case <-ctx.Done():
		return ctx.Err()
	}
	m.sent.Add(1)
	return nil
}

// The queue never makes a request wait: a full queue refuses the mail at
// once and says so; Close sends what is queued.
func TestQueueIsBoundedAndDrains(t *testing.T) {
	m := &slowMailer{release: make(chan struct{})}
	q := mail.NewQueue(m, 1, 2, time.Minute, slog.New(slog.DiscardHandler))
	var failed atomic.Int32
	start := time.Now()
	for range 5 { // one sending, two waiting, two refused
		q.Post(mail.Message{To: "a@example.com", Subject: "x"}, func(err error) {
			if errors.Is(err, mail.ErrQueueFull) {
				failed.Add(1)
			}
		})
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("posting took %v", d)
	}
	if n := failed.Load(); n < 2 {
		t.Fatalf("%d mails refused by a full queue, want at least 2", n)
	}
	close(m.release)
	if err := q.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := q.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := int(m.sent.Load()) + int(failed.Load()); got != 5 {
		t.Fatalf("%d mails sent and %d refused, want 5 in all", m.sent.Load(), failed.Load())
	}
	var after error
	q.Post(mail.Message{To: "a@example.com"}, func(err error) { after = err })
	if !errors.Is(after, mail.ErrQueueClosed) {
		t.Fatalf("a mail after Close: %v", after)
	}
}

// A composed mail is written on a worker: one composed as nil is not sent,
// one whose composing fails is reported as unsent, and Wait counts both.
func TestQueueComposes(t *testing.T) {
	m := &slowMailer{release: make(chan struct{})}
	close(m.release)
	q := mail.NewQueue(m, 2, 10, time.Minute, slog.New(slog.DiscardHandler))
	var failed atomic.Int32
	q.Compose(func(context.Context) (*mail.Message, error) {
		return &mail.Message{To: "a@example.com", Subject: "x"}, nil
	}, nil)
	q.Compose(func(context.Context) (*mail.Message, error) { return nil, nil }, func(error) { failed.Add(1) })
	q.Compose(func(context.Context) (*mail.Message, error) { return nil, errors.New("no database") }, func(error) { failed.Add(1) })
	if err := q.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	if m.sent.Load() != 1 || failed.Load() != 1 {
		t.Fatalf("%d sent, %d failed; want the composed mail sent and the failed composition reported", m.sent.Load(), failed.Load())
	}
}
