package core

import "context"

// Message is one e-mail.
type Message struct {
	To      string
	Subject string
	Text    string
}

// Mailer sends e-mail (SMTP, or the development log).
type Mailer interface {
	Send(ctx context.Context, m Message) error
}

// MailQueue sends e-mail in the background, so that an answer takes as long
// whether or not it sent a mail, and a slow mail server slows no request.
// Post returns at once; failed, when not nil, runs (on another goroutine)
// if the mail could not be sent or queued.
type MailQueue interface {
	Post(m Message, failed func(error))
	// Compose queues a mail that compose writes when its turn comes (nil:
	// no mail after all): what the mail depends on is looked up after the
	// answer, so the request does the same work whatever the mail turns
	// out to be. failed runs also when compose fails.
	Compose(compose func(ctx context.Context) (*Message, error), failed func(error))
}

// Image is a stored image (an avatar, a kart), served by its id.
type Image struct {
	ID          string
	ContentType string
	Data        []byte
}
