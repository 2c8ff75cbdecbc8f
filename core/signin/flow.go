package signin

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"time"
)

// Flow is what a browser keeps between the start of a sign-in and the
// provider's callback, sealed in a cookie: the state the callback must
// bring back, the nonce the ID token must carry, the PKCE verifier, and
// the console path to return to.
type Flow struct {
	State    string `json:"s"`
	Nonce    string `json:"n"`
	Verifier string `json:"v"`
	Return   string `json:"r"`
	Expires  int64  `json:"e"`
}

// ErrNoFlow is a callback without a valid sealed flow: expired, forged,
// made for another admin, or already used.
var ErrNoFlow = errors.New("this sign-in was not started here, has expired or was already used; start again")

// Sealer seals flows with AES-GCM under a key derived from the console
// secret (every admin sharing it opens every other's flows).
type Sealer struct {
	aead cipher.AEAD
	now  func() time.Time
}

// flowLifetime is how long a person may take at the provider's login page.
const flowLifetime = 10 * time.Minute

// NewSealer derives the flow key from secret.
func NewSealer(secret []byte, now func() time.Time) *Sealer {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("xxl-admin-go sign-in flow v1"))
	block, _ := aes.NewCipher(m.Sum(nil))
	aead, _ := cipher.NewGCM(block)
	return &Sealer{aead: aead, now: now}
}

// Seal returns the cookie value of f, valid for flowLifetime.
func (s *Sealer) Seal(f Flow) string {
	f.Expires = s.now().Add(flowLifetime).Unix()
	plain, _ := json.Marshal(f)
	nonce := make([]byte, s.aead.NonceSize())
	_, _ = rand.Read(nonce)
	return base64.RawURLEncoding.EncodeToString(s.aead.Seal(nonce, nonce, plain, nil))
}

// Open reads a cookie value Seal made and has not expired.
func (s *Sealer) Open(value string) (Flow, error) {
	raw, err := base64.RawURLEncoding.DecodeString(value)
	if err != nil || len(raw) < s.aead.NonceSize() {
		return Flow{}, ErrNoFlow
	}
	n := s.aead.NonceSize()
	plain, err := s.aead.Open(nil, raw[:n], raw[n:], nil)
	var f Flow
	if err != nil || json.Unmarshal(plain, &f) != nil || f.State == "" || s.now().Unix() > f.Expires {
		return Flow{}, ErrNoFlow
	}
	return f, nil
}

// CheckState compares a callback's state with the flow's.
func (f Flow) CheckState(state string) bool { return state != "" && equalSecret(state, f.State) }

func equalSecret(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

func randomText() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
