// Private Redis and PostgreSQL servers for the faults: started, killed and restarted by the night, never the machine's own.

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"
)

// privateRedis is a redis-server of the night's own, which the Redis fault
// restarts empty.
type privateRedis struct {
	port      int
	dir       string
	aof       bool // an append-only file: a restart keeps the data
	replicaOf int  // the primary's port, for a replica
	cmd       *exec.Cmd
	mu        sync.Mutex
}

func startPrivateRedis(ctx context.Context, dir, ports string, aof bool, replicaOf int) (*privateRedis, error) {
	if _, err := exec.LookPath("redis-server"); err != nil {
		return nil, errors.New("redis-server is not installed")
	}
	port, err := freePort(ports)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	r := &privateRedis{port: port, dir: dir, aof: aof, replicaOf: replicaOf}
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
	aof := "no"
	if r.aof {
		aof = "yes"
	}
	args := []string{"--port", itoa(r.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", aof,
		"--appendfsync", "everysec", "--daemonize", "no", "--dir", r.dir}
	if r.replicaOf > 0 {
		args = append(args, "--replicaof", "127.0.0.1", itoa(r.replicaOf))
	}
	r.cmd = exec.Command("redis-server", args...)
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
// it comes back empty; with one, with what it had up to a second before.
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

// isPrimary tells whether the server answers as a primary.
func (r *privateRedis) isPrimary(ctx context.Context) bool {
	rdb := redis.NewClient(&redis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", r.port), MaxRetries: -1, DialTimeout: time.Second})
	defer rdb.Close()
	s, err := rdb.Info(ctx, "replication").Result()
	return err == nil && strings.Contains(s, "role:master")
}

// sentinelMaster is the name the night's sentinels know its primary by.
const sentinelMaster = "pitlane-night"

// privateSentinels are three redis-sentinel processes watching the night's
// primary, which the failover fault kills: they promote the replica.
type privateSentinels struct {
	addrs []string
	cmds  []*exec.Cmd
}

func startSentinels(ctx context.Context, dir, ports string, primary int) (*privateSentinels, error) {
	if _, err := exec.LookPath("redis-sentinel"); err != nil {
		return nil, errors.New("redis-sentinel is not installed")
	}
	s := &privateSentinels{}
	for i := range 3 {
		port, err := freePort(ports)
		if err != nil {
			s.stop()
			return nil, err
		}
		conf := filepath.Join(dir, fmt.Sprintf("sentinel-%d.conf", i+1))
		body := fmt.Sprintf("port %d\nbind 127.0.0.1\nprotected-mode no\ndir %s\n"+
			"sentinel monitor %s 127.0.0.1 %d 2\nsentinel down-after-milliseconds %s 1000\n"+
			"sentinel failover-timeout %s 10000\nsentinel parallel-syncs %s 1\n",
			port, dir, sentinelMaster, primary, sentinelMaster, sentinelMaster, sentinelMaster)
		if err := os.WriteFile(conf, []byte(body), 0o600); err != nil {
			s.stop()
			return nil, err
		}
		logs, err := os.Create(filepath.Join(dir, fmt.Sprintf("sentinel-%d.log", i+1)))
		if err != nil {
			s.stop()
			return nil, err
		}
		cmd := exec.Command("redis-sentinel", conf)
		cmd.Stdout, cmd.Stderr = logs, logs
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		err = cmd.Start()
		logs.Close()
		if err != nil {
			s.stop()
			return nil, err
		}
		s.cmds = append(s.cmds, cmd)
		addr := fmt.Sprintf("127.0.0.1:%d", port)
		s.addrs = append(s.addrs, addr)
		if err := s.wait(ctx, 20*time.Second, func(sc *redis.SentinelClient) bool { return sc.Ping(ctx).Err() == nil }, addr); err != nil {
			s.stop()
			return nil, err
		}
	}
	// A failover needs the sentinels to know the replica and one another
	// (they announce themselves every 2 s).
	known := func(sc *redis.SentinelClient) bool {
		replicas, err1 := sc.Replicas(ctx, sentinelMaster).Result()
		peers, err2 := sc.Sentinels(ctx, sentinelMaster).Result()
		return err1 == nil && err2 == nil && len(replicas) == 1 && len(peers) == 2
	}
	if err := s.wait(ctx, 60*time.Second, known, s.addrs...); err != nil {
		s.stop()
		return nil, err
	}
	return s, nil
}

// wait polls each sentinel until ok holds of it.
func (s *privateSentinels) wait(ctx context.Context, limit time.Duration, ok func(*redis.SentinelClient) bool, addrs ...string) error {
	deadline := time.Now().Add(limit)
	for _, addr := range addrs {
		sc := redis.NewSentinelClient(&redis.Options{Addr: addr, MaxRetries: -1, DialTimeout: time.Second})
		for !ok(sc) {
			if time.Now().After(deadline) || ctx.Err() != nil {
				sc.Close()
				return fmt.Errorf("sentinel %s not ready after %v", addr, limit)
			}
			time.Sleep(100 * time.Millisecond)
		}
		sc.Close()
	}
	return nil
}

func (s *privateSentinels) stop() {
	for _, c := range s.cmds {
		_ = c.Process.Kill()
		_ = c.Wait()
	}
}

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
