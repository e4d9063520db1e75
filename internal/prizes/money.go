package prizes

import (
	"fmt"
	"strings"

	"github.com/pitlane/pitlane/internal/errs"
)

// MaxAmount bounds one amount (and any sum the ledger keeps): ten billion
// of a currency's major unit in cents is far beyond any league's prize, and
// far below int64's overflow, so sums of many entries cannot wrap.
const MaxAmount int64 = 1_000_000_000_000

// exponents are the ISO 4217 currencies a pool may be in and the digits of
// their minor unit (JPY has none, KWD three). Stripe takes all of them.
var exponents = map[string]int{
	"AED": 2, "AUD": 2, "BGN": 2, "BHD": 3, "BRL": 2, "CAD": 2, "CHF": 2, "CLP": 0, "CNY": 2, "CZK": 2,
	"DKK": 2, "EUR": 2, "GBP": 2, "HKD": 2, "HUF": 2, "IDR": 2, "ILS": 2, "INR": 2, "ISK": 0, "JOD": 3,
	"JPY": 0, "KRW": 0, "KWD": 3, "MXN": 2, "MYR": 2, "NOK": 2, "NZD": 2, "PHP": 2, "PLN": 2, "RON": 2,
	"SAR": 2, "SEK": 2, "SGD": 2, "THB": 2, "TRY": 2, "TWD": 2, "UAH": 2, "USD": 2, "VND": 0, "ZAR": 2,
}

// Currency is an ISO 4217 code, upper case.
type Currency string

// ParseCurrency reads a code in any case; one we do not know is Invalid.
func ParseCurrency(s string) (Currency, error) {
	c := Currency(strings.ToUpper(strings.TrimSpace(s)))
	if _, ok := exponents[string(c)]; !ok {
		return "", errs.E(errs.Invalid, "%q is not a currency we take (an ISO 4217 code such as EUR, USD or GBP).", errs.Echo(s))
	}
	return c, nil
}

// Exponent is how many digits the currency's minor unit has.
func (c Currency) Exponent() int { return exponents[string(c)] }

// Money is an amount in a currency's minor unit (cents): never a float.
type Money struct {
	Minor    int64    `json:"amount"`
	Currency Currency `json:"currency"`
}

// Add is m+n; the currencies must match and the sum stay within MaxAmount.
func (m Money) Add(n Money) (Money, error) {
	if m.Currency != n.Currency {
		return Money{}, errs.E(errs.Invalid, "Cannot add %s to %s.", n.Currency, m.Currency)
	}
	s := m.Minor + n.Minor
	if s > MaxAmount || s < -MaxAmount {
		return Money{}, errs.E(errs.Invalid, "That sum is beyond what a pool may hold.")
	}
	return Money{s, m.Currency}, nil
}

// Sub is m-n, under the rules of Add.
func (m Money) Sub(n Money) (Money, error) { return m.Add(Money{-n.Minor, n.Currency}) }

// String writes the amount in the major unit with its code ("12.50 EUR"),
// for logs and messages: exact, by integer division.
func (m Money) String() string {
	e := m.Currency.Exponent()
	sign, v := "", m.Minor
	if v < 0 {
		sign, v = "-", -v
	}
	if e == 0 {
		return fmt.Sprintf("%s%d %s", sign, v, m.Currency)
	}
	p := int64(1)
	for range e {
		p *= 10
	}
	return fmt.Sprintf("%s%d.%0*d %s", sign, v/p, e, v%p, m.Currency)
}

// checkAmount refuses an amount outside 1..MaxAmount (what names it in the message).
func checkAmount(what string, v int64, zeroOK bool) error {
	if v < 0 || v > MaxAmount || (v == 0 && !zeroOK) {
		return errs.E(errs.Invalid, "%s must be a whole number of the currency's minor unit (cents), from %d to %d.", what, map[bool]int{true: 0, false: 1}[zeroOK], MaxAmount)
	}
	return nil
}
