package accounts

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// trace records the calls a request makes to what the service stands on.
type trace struct{ calls []string }

func (t *trace) add(call string) { t.calls = append(t.calls, call) }

// tracedStore answers a reset request's reads: a verified account, a
// sign-up never finished, and no account.
type tracedStore struct {
	Store
	t     *trace
	users map[string]User
}

func (s tracedStore) FindUserByEmail(_ context.Context, email string) (User, error) {
	s.t.add("find user")
	if u, ok := s.users[email]; ok {
		return u, nil
	}
	return User{}, errs.E(errs.NotFound, "Account not found")
}

func (s tracedStore) IssueCode(_ context.Context, r CodeRequest) (CodeIssue, error) {
	s.t.add("issue code")
	return CodeIssue{SentAt: time.Now(), Next: time.Minute}, nil
}

type tracedTx struct{ t *trace }

func (x tracedTx) Transact(ctx context.Context, fn func(context.Context) error) error {
	x.t.add("transaction")
	return fn(ctx)
}

func (x tracedTx) Snapshot(ctx context.Context, fn func(context.Context) error) error {
	x.t.add("snapshot")
	return fn(ctx)
}

type tracedAudit struct {
	core.AuditLog
	t *trace
}

func (a tracedAudit) Record(context.Context, core.Actor, string, int64, string, any) error {
	a.t.add("audit")
	return nil
}

// tracedMail queues nothing: what a queued mail does happens after the
// answer.
type tracedMail struct{ t *trace }

func (m tracedMail) Post(core.Message, func(error)) { m.t.add("queue mail") }

func (m tracedMail) Compose(func(context.Context) (*core.Message, error), func(error)) {
	m.t.add("queue mail")
}

// A reset request does the same work before it answers whether the
// address has a verified account, a sign-up never finished or no account:
// what differs (the account's code, its audit entry, the mail) is done
// after the answer, so its time tells nothing about the address.
func TestResetRequestDoesTheSameWorkForEveryAddress(t *testing.T) {
	users := map[string]User{
		"verified@example.com": {ID: 1, Email: "verified@example.com", EmailVerified: true, PasswordHash: "x"},
		"pending@example.com":  {ID: 2, Email: "pending@example.com"},
	}
	var traces [][]string
	for _, email := range []string{"verified@example.com", "pending@example.com", "nobody@example.com"} {
		tr := &trace{}
		s := &Service{Store: tracedStore{t: tr, users: users}, Tx: tracedTx{tr}, Audit: tracedAudit{t: tr}, Mail: tracedMail{tr},
			OTPSecret: []byte("secret")}
		next, err := s.RequestPasswordReset(t.Context(), email)
		if err != nil || next != time.Minute {
			t.Fatalf("%s: %v, %v", email, next, err)
		}
		traces = append(traces, tr.calls)
	}
	if !slices.Equal(traces[0], traces[1]) || !slices.Equal(traces[1], traces[2]) {
		t.Fatalf("before the answer, a verified account's address does %v, a pending sign-up's %v, an unknown one %v",
			traces[0], traces[1], traces[2])
	}
}
