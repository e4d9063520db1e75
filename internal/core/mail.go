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

// Image is a stored image (an avatar, a kart), served by its id.
type Image struct {
	ID          string
	ContentType string
	Data        []byte
}
