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
