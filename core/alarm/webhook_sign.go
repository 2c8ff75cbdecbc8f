package alarm

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/url"
	"strconv"
	"time"
)

// signDingTalk adds the "加签" query parameters of a DingTalk robot:
// sign = base64(HMAC-SHA256(key=secret, msg="<ms timestamp>\n<secret>")).
func signDingTalk(rawURL, secret string, now time.Time) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", err
	}
	ts := strconv.FormatInt(now.UnixMilli(), 10)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts + "\n" + secret))
	q := u.Query()
	q.Set("timestamp", ts)
	q.Set("sign", base64.StdEncoding.EncodeToString(mac.Sum(nil)))
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// signFeishu is the signature of a Feishu/Lark robot: the HMAC-SHA256 key is
// "<s timestamp>\n<secret>" and the message is empty.
func signFeishu(secret string, now time.Time) (timestamp, sign string) {
	timestamp = strconv.FormatInt(now.Unix(), 10)
	mac := hmac.New(sha256.New, []byte(timestamp+"\n"+secret))
	return timestamp, base64.StdEncoding.EncodeToString(mac.Sum(nil))
}
