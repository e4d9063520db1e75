package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// nightPassword is every demo account's password on the night's database,
// which the tool seeds itself.
const nightPassword = "pitlane-night"

type stage struct {
	cfg      nightConfig
	dir      string // logs and data folders; kept when the night fails
	pg       *privatePG
	redis    *privateRedis
	replica  *privateRedis     // the failover fault's
	sentries *privateSentinels // the failover fault's
	adminURL string            // where the night's database is made and dropped
	dbName   string
	dbURL    string
	db       *pgxpool.Pool // the tool's own reads: the outbox, the bids, the locks
	redisURL string
	prefix   string
	discord  *fakeDiscord
	servers  []*instance
	secret   string
	seedTime time.Duration
}

// instance is one `pitlane serve`.
type instance struct {
	name, addr, base, logPath string
	metricsAddr               string // its Prometheus metrics (METRICS_ADDR)
	cmd                       *exec.Cmd
	mu                        sync.Mutex
	dead                      bool
}

func (in *instance) alive() bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	return !in.dead
}

// newStage makes the night's database, seeds it at PPL7's auction, and
// starts the fake Discord and the instances.
func newStage(ctx context.Context, cfg nightConfig) (st *stage, err error) {
	st = &stage{cfg: cfg, adminURL: cfg.databaseURL, redisURL: cfg.redisURL}
	if st.dir, err = os.MkdirTemp("", "pitlane-night-"); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			st.close(false, true)
		}
	}()
	if cfg.privatePG {
		if st.pg, err = startPrivatePG(ctx, filepath.Join(st.dir, "pg"), cfg.ports); err != nil {
			return st, fmt.Errorf("private PostgreSQL: %w", err)
		}
		st.adminURL = st.pg.url()
	}
	if cfg.privateRedis {
		if st.redis, err = startPrivateRedis(ctx, st.dir, cfg.ports, cfg.redisAOF, 0); err != nil {
			return st, fmt.Errorf("private Redis: %w", err)
		}
		st.redisURL = st.redis.url()
	}
	if cfg.fault == faultFailover {
		if st.replica, err = startPrivateRedis(ctx, filepath.Join(st.dir, "replica"), cfg.ports, cfg.redisAOF, st.redis.port); err != nil {
			return st, fmt.Errorf("private Redis replica: %w", err)
		}
		if st.sentries, err = startSentinels(ctx, st.dir, cfg.ports, st.redis.port); err != nil {
			return st, fmt.Errorf("sentinels: %w", err)
		}
	}
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	st.secret = hex.EncodeToString(b)
	st.dbName = "pitlane_night_" + st.secret[:12]
	st.prefix = "night:" + st.secret[:12] + ":"
	if err := st.createDB(ctx); err != nil {
		return st, err
	}
	start := time.Now()
	seed := exec.CommandContext(ctx, cfg.pitlane, "seed-demo", "-phase", "auction", "-password", nightPassword, "-players-sign-in")
	seed.Env = st.env(nil)
	if out, err := seed.CombinedOutput(); err != nil {
		return st, fmt.Errorf("seed-demo: %v\n%s", err, out)
	}
	st.seedTime = time.Since(start)
	if st.db, err = pgxpool.New(ctx, st.dbURL); err != nil {
		return st, err
	}
	if st.discord, err = startFakeDiscord(); err != nil {
		return st, err
	}
	for i := range cfg.instances {
		in, err := st.startInstance(ctx, i)
		if err != nil {
			return st, err
		}
		st.servers = append(st.servers, in)
	}
	// The bot is the first instance's (it took its lock first): the night
	// begins once it follows the hub.
	if err := st.discord.waitReady(ctx, 60*time.Second); err != nil {
		return st, err
	}
	// The seed's events reach the hub (and the bot) as the first instance
	// starts; the night begins once they have.
	if err := st.waitPublished(ctx, time.Minute); err != nil {
		return st, err
	}
	st.discord.settle(ctx, 30*time.Second)
	return st, nil
}

func (st *stage) createDB(ctx context.Context) error {
	admin, err := pgx.Connect(ctx, st.adminURL)
	if err != nil {
		return fmt.Errorf("connect to %s: %w", redactURL(st.adminURL), err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+st.dbName); err != nil {
		return err
	}
	u, _ := url.Parse(st.adminURL)
	u.Path = "/" + st.dbName
	st.dbURL = u.String()
	return nil
}

// env is a server's environment: nothing of the caller's but PATH and HOME,
// so a DATABASE_URL in the shell cannot send the night elsewhere.
func (st *stage) env(extra []string) []string {
	return append([]string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"),
		"DATABASE_URL=" + st.dbURL, "DEFAULT_TOURNAMENT=PPL7", "PITLANE_ENV=development",
	}, extra...)
}

// startInstance starts the i-th `pitlane serve` and waits until it is ready.
func (st *stage) startInstance(ctx context.Context, i int) (*instance, error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	maddr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	in := &instance{name: fmt.Sprintf("instance %d", i+1), addr: addr, base: "http://" + addr, metricsAddr: maddr,
		logPath: filepath.Join(st.dir, fmt.Sprintf("serve-%d.log", i+1))}
	logs, err := os.Create(in.logPath)
	if err != nil {
		return nil, err
	}
	defer logs.Close()
	// The database URL names the instance, so the tool can tell which one
	// holds the relay's and the bot's locks (pg_stat_activity).
	dbURL := st.dbURL + sep(st.dbURL) + "application_name=" + url.QueryEscape(appName(i))
	in.cmd = exec.Command(st.cfg.pitlane, "serve")
	redisEnv := []string{"REDIS_URL=" + st.redisURL}
	if st.sentries != nil {
		redisEnv = []string{"REDIS_SENTINELS=" + strings.Join(st.sentries.addrs, ","), "REDIS_MASTER_NAME=" + sentinelMaster}
	}
	in.cmd.Env = append(st.env(redisEnv), "DATABASE_URL="+dbURL, "ADDR="+addr, "REDIS_PREFIX="+st.prefix,
		"METRICS_ADDR="+maddr, "JWT_SECRET="+st.secret, "PITLANE_DATA_DIR="+filepath.Join(st.dir, fmt.Sprintf("data-%d", i+1)),
		"ADMIN_EMAILS=organiser@demo.pitlane.local", "WS_CONNECTIONS_PER_IP=0", "RATE_LIMIT_SCALE=100",
		"AUCTION_LOT_SECONDS="+itoa(st.cfg.lotSeconds), "AUCTION_LATE_BID_SECONDS="+itoa(st.cfg.lateBidSeconds),
		"DISCORD_BOT_TOKEN=night-bot-token", "DISCORD_ANNOUNCE_CHANNEL="+fakeChannel, "DISCORD_API_URL="+st.discord.apiURL())
	in.cmd.Stdout, in.cmd.Stderr = logs, logs
	in.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := in.cmd.Start(); err != nil {
		return nil, err
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		if res, err := http.Get(in.base + "/readyz"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return in, nil
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			_ = in.cmd.Process.Kill()
			_ = in.cmd.Wait()
			return nil, fmt.Errorf("%s never became ready (log: %s)", in.name, in.logPath)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func appName(i int) string { return fmt.Sprintf("pitlane-night-%d", i+1) }

func sep(u string) string {
	if strings.Contains(u, "?") {
		return "&"
	}
	return "?"
}

// serverPIDs are the live instances' processes.
func (st *stage) serverPIDs() []int {
	var pids []int
	for _, in := range st.servers {
		if in.alive() {
			pids = append(pids, in.cmd.Process.Pid)
		}
	}
	return pids
}

// holders says which instance holds each of the relay's and the bot's
// advisory locks (postgres.relayLock, postgres.BotLock), by the
// application_name each instance connects with.
func (st *stage) holders(ctx context.Context) (relay, bot int) {
	relay, bot = -1, -1
	rows, err := st.db.Query(ctx, `SELECT l.objid::bigint, a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
		WHERE l.locktype = 'advisory' AND l.granted AND a.datname = current_database()`)
	if err != nil {
		logf("which instance holds the locks: %v", err)
		return
	}
	defer rows.Close()
	for rows.Next() {
		var key int64
		var app string
		if rows.Scan(&key, &app) != nil {
			continue
		}
		for i := range st.servers {
			if app == appName(i) {
				switch key {
				case relayLockKey:
					relay = i
				case botLockKey:
					bot = i
				}
			}
		}
	}
	return relay, bot
}

// The advisory lock keys of internal/postgres (relayLock, BotLock).
const (
	relayLockKey = 7_346_222
	botLockKey   = 7_346_223
)

// close stops the instances and the private servers, drops the night's
// database and Redis keys unless keep (-keep), and removes the stage's
// folder unless keepLogs (a failed night's logs stay).
func (st *stage) close(keep, keepLogs bool) {
	for _, in := range st.servers {
		if in.alive() {
			_ = in.cmd.Process.Signal(syscall.SIGTERM)
			waitOrKill(in.cmd, 15*time.Second)
		}
	}
	if st.discord != nil {
		st.discord.close()
	}
	if st.db != nil {
		st.db.Close()
	}
	if st.dbURL != "" && !keep {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		if admin, err := pgx.Connect(ctx, st.adminURL); err == nil {
			_, _ = admin.Exec(ctx, "DROP DATABASE IF EXISTS "+st.dbName+" WITH (FORCE)")
			_ = admin.Close(ctx)
		}
		cancel()
	}
	if st.sentries != nil {
		st.sentries.stop()
	}
	if st.replica != nil {
		st.replica.stop()
	}
	if st.redis != nil {
		st.redis.stop()
	} else if st.redisURL != "" && !keep {
		deleteKeys(st.redisURL, st.prefix+"*") // the night's prefix is its own
	}
	if st.pg != nil {
		st.pg.stop()
		if !keep {
			_ = os.RemoveAll(st.pg.data()) // its log stays with the others
		}
	}
	if !keep && !keepLogs && st.dir != "" {
		_ = os.RemoveAll(st.dir)
	}
}

// freeAddr is a loopback address with a port nobody listens on now.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// freePort finds a port nobody listens on in the range "lo-hi".
func freePort(ports string) (int, error) {
	lo, hi, ok := strings.Cut(ports, "-")
	a, err1 := strconv.Atoi(lo)
	b, err2 := strconv.Atoi(hi)
	if !ok || err1 != nil || err2 != nil || a > b {
		return 0, fmt.Errorf("-ports %q is not a range like 18300-18399", ports)
	}
	for p := a; p <= b; p++ {
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
		if err == nil {
			ln.Close()
			return p, nil
		}
	}
	return 0, fmt.Errorf("no free port in %s", ports)
}

func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "the database"
	}
	return u.Redacted()
}

// kill ends an instance with SIGKILL: no shutdown, no goodbye to its
// clients, its timers and its locks' connections gone with it.
func (st *stage) kill(i int) error {
	in := st.servers[i]
	in.mu.Lock()
	in.dead = true
	in.mu.Unlock()
	if err := in.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		return err
	}
	_ = in.cmd.Wait()
	return nil
}
