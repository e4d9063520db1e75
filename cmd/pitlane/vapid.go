package main

import (
	"fmt"
	"io"

	"github.com/pitlane/pitlane/internal/push"
)

// vapidKeys prints a new VAPID key pair for Web Push, as environment lines.
func vapidKeys(stdout io.Writer) error {
	public, private, err := push.NewKeys()
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "VAPID_PUBLIC_KEY=%s\nVAPID_PRIVATE_KEY=%s\n", public, private)
	return err
}
