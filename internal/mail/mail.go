// Package mail sends Pitlane's e-mails: through real SMTP when SMTP_URL is
// set, otherwise as one JSON log line per mail for development.
package mail

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	gomail "github.com/wneessen/go-mail"

	"github.com/pitlane/pitlane/internal/core"
)

// Message is one e-mail.
type Message = core.Message

// New returns an SMTP sender for smtpURL, or a log sender when it is empty.
func New(smtpURL, from string, log *slog.Logger) (core.Mailer, error) {
	if smtpURL == "" {
		return LogSender{Log: log, From: from}, nil
	}
	u, err := url.Parse(smtpURL)
	if err != nil {
		return nil, fmt.Errorf("SMTP_URL: %w", err)
	}
	port := 25
	if p := u.Port(); p != "" {
		if port, err = strconv.Atoi(p); err != nil {
			return nil, fmt.Errorf("SMTP_URL port: %w", err)
		}
	}
	opts := []gomail.Option{gomail.WithPort(port), gomail.WithTimeout(10 * time.Second)}
	switch u.Scheme {
	case "smtps":
		opts = append(opts, gomail.WithSSLPort(false), gomail.WithPort(port))
	case "smtp":
		// With credentials, STARTTLS is required: a password (and the codes)
		// never cross the network in clear because someone stripped it.
		// Without, STARTTLS when offered: local relays and test servers.
		policy := gomail.TLSOpportunistic
		if u.User != nil {
			policy = gomail.TLSMandatory
		}
		opts = append(opts, gomail.WithTLSPolicy(policy))
	default:
		return nil, fmt.Errorf("SMTP_URL scheme must be smtp or smtps, got %q", u.Scheme)
	}
	if u.User != nil {
		pass, _ := u.User.Password()
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(u.User.Username()), gomail.WithPassword(pass))
	}
	return &SMTPSender{host: u.Hostname(), opts: opts, from: from}, nil
}

// SMTPSender delivers through an SMTP server.
type SMTPSender struct {
	host string
	opts []gomail.Option
	from string
}

// Send opens a connection, delivers m and closes it.
func (s *SMTPSender) Send(ctx context.Context, m Message) error {
	msg := gomail.NewMsg()
	if err := msg.From(s.from); err != nil {
		return redacted{fmt.Errorf("mail from: %w", err)}
	}
	if err := msg.To(m.To); err != nil {
		return redacted{fmt.Errorf("mail to: %w", err)}
	}
	msg.Subject(m.Subject)
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	c, err := gomail.NewClient(s.host, s.opts...)
	if err != nil {
		return redacted{err}
	}
	if err := c.DialAndSendWithContext(ctx, msg); err != nil {
		return redacted{err}
	}
	return nil
}

// redacted is an error whose text names no e-mail address: go-mail's send
// errors list the affected recipients, servers echo them in their replies,
// and these errors are logged.
type redacted struct{ err error }

var addressRe = regexp.MustCompile(`[^\s<>"',;:()\[\]]+@[^\s<>"',;:()\[\]]+`)

func (r redacted) Error() string { return addressRe.ReplaceAllString(r.err.Error(), "<address>") }
func (r redacted) Unwrap() error { return r.err }

// Unsent drops every mail, logging only that it did (no address, no text):
// production without SMTP_URL.
type Unsent struct{ Log *slog.Logger }

// Send logs that m was not sent and fails, so the caller answers 502.
func (u Unsent) Send(_ context.Context, m Message) error {
	u.Log.Error("mail not sent: SMTP_URL is not set", slog.String("subject", m.Subject))
	return errors.New("mail: SMTP_URL is not set")
}

// LogSender writes each mail as one JSON log line. Development only: the
// line holds the OTP, which is the point of it, and the address masked
// (a…@example.com): enough to tell whose code it is, not to harvest.
type LogSender struct {
	Log  *slog.Logger
	From string
}

// Send logs m.
func (l LogSender) Send(_ context.Context, m Message) error {
	l.Log.Info("mail", slog.String("from", l.From), slog.String("to", Mask(m.To)),
		slog.String("subject", m.Subject), slog.String("text", m.Text))
	return nil
}

// Mask shows the first character of an address's local part and its domain.
func Mask(addr string) string {
	at := strings.LastIndexByte(addr, '@')
	if at < 1 {
		return "<address>"
	}
	_, size := utf8.DecodeRuneInString(addr)
	return addr[:size] + "…" + addr[at:]
}
