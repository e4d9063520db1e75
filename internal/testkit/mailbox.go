// Package testkit holds what Pitlane's tests share: a real SMTP server that
// keeps the mails it receives, a fake Google key set that signs ID tokens,
// and a running Pitlane server on a fresh database.
package testkit

import (
	"errors"
	"io"
	"net"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// Mail is one received message.
type Mail struct {
	From string
	To   []string
	Data string
}

// Mailbox is an in-process SMTP server (emersion/go-smtp) that keeps every
// mail, so tests read the OTP the server really sent.
type Mailbox struct {
	Addr   string
	mu     sync.Mutex
	got    []Mail
	cond   *sync.Cond
	refuse atomic.Bool
	delay  atomic.Int64 // ns each mail's DATA takes
}

// Delay makes the server take d over each mail, as a slow mail server does.
func (mb *Mailbox) Delay(d time.Duration) { mb.delay.Store(int64(d)) }

// Refuse makes the server answer every mail with a temporary failure (451),
// as a mail server in trouble does, until called with false.
func (mb *Mailbox) Refuse(on bool) { mb.refuse.Store(on) }

// NewMailbox starts a mailbox on a free loopback port, closed with the test.
func NewMailbox(t testing.TB) *Mailbox {
	t.Helper()
	mb := &Mailbox{}
	mb.cond = sync.NewCond(&mb.mu)
	s := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) { return &session{mb: mb}, nil }))
	s.Domain = "localhost"
	s.AllowInsecureAuth = true
	s.ReadTimeout, s.WriteTimeout = 10*time.Second, 10*time.Second
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mb.Addr = ln.Addr().String()
	go s.Serve(ln)
	t.Cleanup(func() { s.Close() })
	return mb
}

// URL is the SMTP_URL of the mailbox.
func (mb *Mailbox) URL() string { return "smtp://" + mb.Addr }

// Count is how many mails arrived for to.
func (mb *Mailbox) Count(to string) int {
	mb.mu.Lock()
	defer mb.mu.Unlock()
	n := 0
	for _, m := range mb.got {
		for _, r := range m.To {
			if strings.EqualFold(r, to) {
				n++
			}
		}
	}
	return n
}

// Last is the text of the last mail to to, "" if none came.
func (mb *Mailbox) Last(to string) string {
	mb.mu.Lock()
	defer mb.mu.Unlock()
	for i := len(mb.got) - 1; i >= 0; i-- {
		for _, r := range mb.got[i].To {
			if strings.EqualFold(r, to) {
				return mb.got[i].Data
			}
		}
	}
	return ""
}

var (
	otpRe  = regexp.MustCompile(`verification code is ([0-9]{6})`)
	codeRe = regexp.MustCompile(`\bis ([0-9]{6})\b`)
)

// OTP waits (up to 5 s) for the n-th mail to to (1-based) and returns its
// sign-up code.
func (mb *Mailbox) OTP(t testing.TB, to string, n int) string {
	t.Helper()
	return mb.code(t, to, n, otpRe)
}

// Code waits (up to 5 s) for the n-th mail to to (1-based) and returns the
// code it gives, whatever it is for (a reset, a change of address).
func (mb *Mailbox) Code(t testing.TB, to string, n int) string {
	t.Helper()
	return mb.code(t, to, n, codeRe)
}

func (mb *Mailbox) code(t testing.TB, to string, n int, re *regexp.Regexp) string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		mb.mu.Lock()
		seen := 0
		for _, m := range mb.got {
			for _, r := range m.To {
				if strings.EqualFold(r, to) {
					seen++
					if seen == n {
						mb.mu.Unlock()
						c := re.FindStringSubmatch(m.Data)
						if c == nil {
							t.Fatalf("mail to %s has no code:\n%s", to, m.Data)
						}
						return c[1]
					}
				}
			}
		}
		mb.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatalf("no mail #%d to %s arrived", n, to)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

type session struct {
	mb   *Mailbox
	mail Mail
}

func (s *session) Reset()        { s.mail = Mail{} }
func (s *session) Logout() error { return nil }
func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	s.mail.From = from
	return nil
}
func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if s.mb.refuse.Load() {
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "<" + to + "> mailbox busy, try again later"}
	}
	s.mail.To = append(s.mail.To, to)
	return nil
}
func (s *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if len(s.mail.To) == 0 {
		return errors.New("no recipients")
	}
	time.Sleep(time.Duration(s.mb.delay.Load()))

	s.mail.Data = decodeQP(string(b))
	s.mb.mu.Lock()
	s.mb.got = append(s.mb.got, s.mail)
	s.mb.mu.Unlock()
	return nil
}

// decodeQP undoes quoted-printable soft breaks enough to read a code.
func decodeQP(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "=\r\n", ""), "=3D", "=")
}
