// Package stripepay is the Stripe adapter of internal/payments: Checkout
// sessions for entry fees, their expiry, refunds, and webhook events
// verified with stripe-go's signature check before anything is read.
package stripepay

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/webhook"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/payments"
)

// Tolerance is how old a signed event's timestamp may be: an older one is
// refused as a replay (Stripe's own default).
const Tolerance = webhook.DefaultTolerance

// MaxBody bounds a webhook's body: Stripe's events are a few kilobytes.
const MaxBody = 64 << 10

// Client speaks to Stripe.
type Client struct {
	sc            *stripe.Client
	webhookSecret string
}

var _ payments.Processor = (*Client)(nil)

// New is a client with the secret key; apiURL ("" for Stripe's own) points
// it elsewhere (stripe-mock in tests).
func New(secretKey, webhookSecret, apiURL string, httpClient *http.Client) *Client {
	cfg := &stripe.BackendConfig{HTTPClient: httpClient, MaxNetworkRetries: stripe.Int64(2),
		LeveledLogger: &stripe.LeveledLogger{Level: stripe.LevelError}}
	if apiURL != "" {
		cfg.URL = stripe.String(strings.TrimRight(apiURL, "/"))
	}
	backends := &stripe.Backends{
		API:     stripe.GetBackendWithConfig(stripe.APIBackend, cfg),
		Connect: stripe.GetBackendWithConfig(stripe.ConnectBackend, cfg),
		Uploads: stripe.GetBackendWithConfig(stripe.UploadsBackend, cfg),
	}
	return &Client{sc: stripe.NewClient(secretKey, stripe.WithBackends(backends)), webhookSecret: webhookSecret}
}

// Checkout implements payments.Processor: a Checkout session in payment
// mode for one entry fee, the payment's id as its reference.
func (c *Client) Checkout(ctx context.Context, r payments.CheckoutRequest) (string, string, error) {
	ref := strconv.FormatInt(r.PaymentID, 10)
	params := &stripe.CheckoutSessionCreateParams{
		Mode:              stripe.String(string(stripe.CheckoutSessionModePayment)),
		ClientReferenceID: stripe.String(ref),
		SuccessURL:        stripe.String(r.SuccessURL),
		CancelURL:         stripe.String(r.CancelURL),
		LineItems: []*stripe.CheckoutSessionCreateLineItemParams{{
			Quantity: stripe.Int64(1),
			PriceData: &stripe.CheckoutSessionCreateLineItemPriceDataParams{
				Currency:   stripe.String(strings.ToLower(string(r.Currency))),
				UnitAmount: stripe.Int64(r.Amount),
				ProductData: &stripe.CheckoutSessionCreateLineItemPriceDataProductDataParams{
					Name: stripe.String("Entry fee: " + r.Tournament),
				},
			},
		}},
		Metadata: map[string]string{"payment": ref},
	}
	params.SetIdempotencyKey("pitlane-checkout-" + ref)
	s, err := c.sc.V1CheckoutSessions.Create(ctx, params)
	if err != nil {
		return "", "", err
	}
	return s.ID, s.URL, nil
}

// Expire implements payments.Processor.
func (c *Client) Expire(ctx context.Context, id string) error {
	_, err := c.sc.V1CheckoutSessions.Expire(ctx, id, &stripe.CheckoutSessionExpireParams{})
	return err
}

// Refund implements payments.Processor.
func (c *Client) Refund(ctx context.Context, intent string, amount int64, key string) (string, error) {
	params := &stripe.RefundCreateParams{PaymentIntent: stripe.String(intent), Amount: stripe.Int64(amount)}
	params.SetIdempotencyKey(key)
	r, err := c.sc.V1Refunds.Create(ctx, params)
	if err != nil {
		return "", err
	}
	return r.ID, nil
}

// MsgBadSignature refuses a webhook whose signature does not check out.
const MsgBadSignature = "That event is not signed by Stripe."

// Verify checks a webhook's Stripe-Signature over its raw body (in
// constant time, with the timestamp within Tolerance) and only then reads
// the event: its id, type and the ids the domain looks its own records up
// by. Amounts are not read: the payment's record has its own.
func (c *Client) Verify(body []byte, signature string) (payments.Event, error) {
	ev, err := webhook.ConstructEventWithOptions(body, signature, c.webhookSecret,
		webhook.ConstructEventOptions{Tolerance: Tolerance, IgnoreAPIVersionMismatch: true})
	if err != nil {
		return payments.Event{}, errs.E(errs.Invalid, MsgBadSignature)
	}
	out := payments.Event{ID: ev.ID, Type: string(ev.Type)}
	if ev.Data == nil {
		return out, nil
	}
	switch out.Type {
	case payments.EventCheckoutCompleted:
		var s stripe.CheckoutSession
		if err := json.Unmarshal(ev.Data.Raw, &s); err != nil {
			return out, errs.E(errs.Invalid, "The event's session could not be read.")
		}
		out.Session = s.ID
		if s.PaymentIntent != nil {
			out.PaymentIntent = s.PaymentIntent.ID
		}
	case payments.EventChargeRefunded:
		var ch stripe.Charge
		if err := json.Unmarshal(ev.Data.Raw, &ch); err != nil {
			return out, errs.E(errs.Invalid, "The event's charge could not be read.")
		}
		if ch.PaymentIntent != nil {
			out.PaymentIntent = ch.PaymentIntent.ID
		}
	}
	if out.ID == "" {
		return out, errors.New("stripepay: an event without an id")
	}
	return out, nil
}
