// Package redisconn opens Pitlane's Redis: one server named by REDIS_URL, or
// the primary that Redis Sentinel names (REDIS_SENTINELS, REDIS_MASTER_NAME),
// followed through failovers without a restart of the instances.
package redisconn

import (
	"errors"
	"fmt"
	"net"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"
)

// Target is where Redis is. With Sentinels, the URL (optional) gives only
// the database, the credentials and the timeouts; its host is not used.
type Target struct {
	URL        string
	Sentinels  []string // host:port of each sentinel
	MasterName string   // the name the sentinels monitor the primary under
}

// Set tells whether a Redis is configured at all.
func (t Target) Set() bool { return t.URL != "" || len(t.Sentinels) > 0 }

// Check tells what is wrong with the target, nil when nothing is.
func (t Target) Check() error {
	var errs []error
	if t.URL != "" {
		if _, err := redis.ParseURL(t.URL); err != nil {
			errs = append(errs, errors.New("REDIS_URL is not a redis:// URL"))
		}
	}
	switch {
	case len(t.Sentinels) > 0 && t.MasterName == "":
		errs = append(errs, errors.New("REDIS_MASTER_NAME is required with REDIS_SENTINELS"))
	case len(t.Sentinels) == 0 && t.MasterName != "":
		errs = append(errs, errors.New("REDIS_SENTINELS is required with REDIS_MASTER_NAME"))
	}
	for _, s := range t.Sentinels {
		if _, port, err := net.SplitHostPort(s); err != nil || port == "" {
			errs = append(errs, fmt.Errorf("REDIS_SENTINELS: %q is not host:port", s))
		}
	}
	return errors.Join(errs...)
}

// Client opens a client of the target; tune may change the options parsed
// from the URL (timeouts, retries) before it is made. It does not connect.
func (t Target) Client(tune func(*redis.Options)) (*redis.Client, error) {
	if err := t.Check(); err != nil {
		return nil, err
	}
	if !t.Set() {
		return nil, errors.New("redisconn: no Redis configured")
	}
	o := &redis.Options{}
	if t.URL != "" {
		var err error
		if o, err = redis.ParseURL(t.URL); err != nil {
			return nil, fmt.Errorf("REDIS_URL: %w", err)
		}
	}
	if tune != nil {
		tune(o)
	}
	if len(t.Sentinels) == 0 {
		o.MaintNotificationsConfig = &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}
		return redis.NewClient(o), nil
	}
	return redis.NewFailoverClient(&redis.FailoverOptions{
		MasterName:    t.MasterName,
		SentinelAddrs: t.Sentinels,
		Username:      o.Username,
		Password:      o.Password,
		DB:            o.DB,
		Protocol:      o.Protocol,
		TLSConfig:     o.TLSConfig,
		MaxRetries:    o.MaxRetries,
		DialTimeout:   o.DialTimeout,
		ReadTimeout:   o.ReadTimeout,
		WriteTimeout:  o.WriteTimeout,
		PoolSize:      o.PoolSize,
		PoolTimeout:   o.PoolTimeout,
		MinIdleConns:  o.MinIdleConns,
	}), nil
}
