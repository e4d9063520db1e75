package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
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
	"github.com/redis/go-redis/v9"
)

// The night's stage: its own database (on the given PostgreSQL, or on a
// private cluster), Redis (the given one under a prefix of its own, or a
// private redis-server), a fake Discord for the bot, and the `pitlane
// serve` instances, all started and stopped by the tool: the faults need
// to kill, restart and reconnect them, which only their owner may do.

// nightPassword is every demo account's password on the night's database,
// which the tool seeds itself.
const nightPassword = "pitlane-night"

type stage struct {
	cfg      nightConfig
	dir      string // logs and data folders; kept when the night fails
	pg       *privatePG
	redis    *privateRedis
	adminURL string // where the night's database is made and dropped
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
		if st.redis, err = startPrivateRedis(ctx, st.dir, cfg.ports); err != nil {
			return st, fmt.Errorf("private Redis: %w", err)
		}
		st.redisURL = st.redis.url()
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
	in := &instance{name: fmt.Sprintf("instance %d", i+1), addr: addr, base: "http://" + addr,
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
	in.cmd.Env = append(st.env(nil), "DATABASE_URL="+dbURL, "ADDR="+addr, "REDIS_URL="+st.redisURL, "REDIS_PREFIX="+st.prefix,
		"JWT_SECRET="+st.secret, "PITLANE_DATA_DIR="+filepath.Join(st.dir, fmt.Sprintf("data-%d", i+1)),
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

// privateRedis is a redis-server of the night's own, which the Redis fault
// restarts empty.
type privateRedis struct {
	port int
	dir  string
	cmd  *exec.Cmd
	mu   sync.Mutex
}

func startPrivateRedis(ctx context.Context, dir, ports string) (*privateRedis, error) {
	if _, err := exec.LookPath("redis-server"); err != nil {
		return nil, errors.New("redis-server is not installed")
	}
	port, err := freePort(ports)
	if err != nil {
		return nil, err
	}
	r := &privateRedis{port: port, dir: dir}
	return r, r.start(ctx)
}

func (r *privateRedis) url() string { return fmt.Sprintf("redis://127.0.0.1:%d/0", r.port) }

func (r *privateRedis) start(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	logs, err := os.OpenFile(filepath.Join(r.dir, "redis.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer logs.Close()
	r.cmd = exec.Command("redis-server", "--port", itoa(r.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--daemonize", "no", "--dir", r.dir)
	r.cmd.Stdout, r.cmd.Stderr = logs, logs
	r.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := r.cmd.Start(); err != nil {
		return err
	}
	rdb := redis.NewClient(&redis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", r.port)})
	defer rdb.Close()
	for deadline := time.Now().Add(20 * time.Second); ; {
		if rdb.Ping(ctx).Err() == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("redis-server on port %d did not answer", r.port)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// kill ends the server with SIGKILL: with no save and no append-only file
// it comes back empty.
func (r *privateRedis) kill() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cmd != nil {
		_ = r.cmd.Process.Kill()
		_ = r.cmd.Wait()
		r.cmd = nil
	}
}

func (r *privateRedis) pid() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cmd == nil {
		return 0
	}
	return r.cmd.Process.Pid
}

func (r *privateRedis) stop() { r.kill() }

// privatePG is a PostgreSQL cluster of the night's own in a temporary
// folder, which the PostgreSQL fault restarts. PostgreSQL refuses to run as
// root: run as root, the tool runs it as the postgres account (runuser).
type privatePG struct {
	bin  string // the folder of initdb, pg_ctl and postgres
	dir  string // the cluster's folder (and its socket's)
	port int
}

func startPrivatePG(ctx context.Context, dir, ports string) (*privatePG, error) {
	bin, err := pgBinDir()
	if err != nil {
		return nil, err
	}
	port, err := freePort(ports)
	if err != nil {
		return nil, err
	}
	pg := &privatePG{bin: bin, dir: dir, port: port}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	if os.Geteuid() == 0 {
		if _, err := exec.LookPath("runuser"); err != nil {
			return nil, errors.New("running as root, PostgreSQL needs runuser to run as the postgres account")
		}
		// The folder above the cluster is the tool's (0700): the postgres
		// account needs to pass through it.
		if err := os.Chmod(filepath.Dir(dir), 0o755); err != nil {
			return nil, err
		}
		if err := exec.Command("chown", "postgres:", dir).Run(); err != nil {
			return nil, fmt.Errorf("chown %s to postgres: %w", dir, err)
		}
	}
	if out, err := pg.run(ctx, "initdb", "-D", pg.data(), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"); err != nil {
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	return pg, pg.start(ctx)
}

// pgBinDir finds the PostgreSQL server's programs: on PATH, else in
// Debian's /usr/lib/postgresql/N/bin.
func pgBinDir() (string, error) {
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		return filepath.Dir(p), nil
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_ctl")
	if len(matches) == 0 {
		return "", errors.New("the PostgreSQL server's programs (initdb, pg_ctl) are not installed")
	}
	return filepath.Dir(matches[len(matches)-1]), nil
}

func (pg *privatePG) data() string { return filepath.Join(pg.dir, "data") }

func (pg *privatePG) url() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", pg.port)
}

// run runs one of the server's programs, as the postgres account when the
// tool is root.
func (pg *privatePG) run(ctx context.Context, prog string, args ...string) ([]byte, error) {
	path := filepath.Join(pg.bin, prog)
	cmd := exec.CommandContext(ctx, path, args...)
	if os.Geteuid() == 0 {
		cmd = exec.CommandContext(ctx, "runuser", append([]string{"-u", "postgres", "--", path}, args...)...)
	}
	cmd.Dir = pg.dir
	return cmd.CombinedOutput()
}

func (pg *privatePG) start(ctx context.Context) error {
	out, err := pg.run(ctx, "pg_ctl", "-D", pg.data(), "-l", filepath.Join(pg.dir, "postgres.log"), "-w", "-t", "60",
		"-o", fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off", pg.port, pg.dir), "start")
	if err != nil {
		return fmt.Errorf("pg_ctl start: %v\n%s", err, out)
	}
	return nil
}

// stopFast is `pg_ctl stop -m fast`: every session is ended (57P01) and
// the server shuts down cleanly.
func (pg *privatePG) stopFast(ctx context.Context) error {
	out, err := pg.run(ctx, "pg_ctl", "-D", pg.data(), "-m", "fast", "-w", "-t", "60", "stop")
	if err != nil {
		return fmt.Errorf("pg_ctl stop: %v\n%s", err, out)
	}
	return nil
}

func (pg *privatePG) stop() {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_ = pg.stopFast(ctx)
}

// pids are the cluster's processes: the postmaster and its children.
func (pg *privatePG) pids() []int {
	b, err := os.ReadFile(filepath.Join(pg.data(), "postmaster.pid"))
	if err != nil {
		return nil
	}
	first, _, _ := strings.Cut(string(b), "\n")
	master, err := strconv.Atoi(strings.TrimSpace(first))
	if err != nil {
		return nil
	}
	return append([]int{master}, childrenOf(master)...)
}

// childrenOf lists the processes whose parent is pid.
func childrenOf(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p))
		if err != nil {
			continue
		}
		i := strings.LastIndexByte(string(b), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			out = append(out, p)
		}
	}
	return out
}
