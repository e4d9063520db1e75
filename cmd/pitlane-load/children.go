package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"
)

// childEnv marks a child process; the package's tests use it to run their
// test binary as a child.
const childEnv = "PITLANE_LOAD_CHILD"

// child is a process this tool started: a hub server or a client worker.
// Its stdin stays open while it should live; closing it (or our death,
// through Pdeathsig) ends it.
type child struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Scanner
	addr  string // hub children: where they listen
}

func startChild(ctx context.Context, env []string, args ...string) (*child, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, self, args...)
	cmd.Stderr = os.Stderr
	cmd.Env = append(append(os.Environ(), childEnv+"=1"), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	cmd.WaitDelay = 5 * time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64<<10), 256<<20) // a worker's result holds every latency
	return &child{cmd: cmd, stdin: stdin, out: sc}, nil
}

// line reads the child's next output line.
func (c *child) line() ([]byte, error) {
	if c.out.Scan() {
		return c.out.Bytes(), nil
	}
	if err := c.out.Err(); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("%s exited early", c.cmd.Args[1])
}

func (c *child) stop() {
	_ = c.stdin.Close()
	waitOrKill(c.cmd, 15*time.Second)
}

// waitOrKill waits for cmd to end, and kills it after grace.
func waitOrKill(cmd *exec.Cmd, grace time.Duration) {
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(grace):
		_ = cmd.Process.Kill()
		<-done
	}
}

type hubSet struct{ procs []*child }

// startHubs starts cfg.instances server children of cfg.server's kind:
// "hub" (Pitlane's hub) or "anchor" (centrifuge).
func startHubs(ctx context.Context, cfg wsConfig) (*hubSet, error) {
	hs := &hubSet{}
	for i := range cfg.instances {
		args := []string{cfg.server, "-addr", "127.0.0.1:0", "-redis", cfg.redis, "-prefix", cfg.prefix}
		if i == 0 && cfg.hubProfile != "" {
			args = append(args, "-cpuprofile", cfg.hubProfile)
		}
		c, err := startChild(ctx, nil, args...)
		if err != nil {
			hs.stop()
			return nil, err
		}
		hs.procs = append(hs.procs, c)
		l, err := c.line()
		if err != nil {
			hs.stop()
			return nil, fmt.Errorf("%s: %w", cfg.server, err)
		}
		addr, ok := strings.CutPrefix(string(l), "listening ")
		if !ok {
			hs.stop()
			return nil, fmt.Errorf("%s said %q", cfg.server, l)
		}
		c.addr = addr
	}
	return hs, nil
}

func (hs *hubSet) stop() {
	for _, c := range hs.procs {
		c.stop()
	}
}

type workerSet struct {
	procs []*child
	ready []workerReady
}

// startWorkers splits the clients over the workers and waits until each
// has connected its share.
func startWorkers(ctx context.Context, cfg wsConfig, urls []string) (*workerSet, error) {
	ips := make([]string, cfg.localIPs)
	for i := range ips {
		ips[i] = fmt.Sprintf("127.0.0.%d", i+2)
	}
	ws := &workerSet{}
	first := 0
	for p := range cfg.procs {
		n := cfg.clients / cfg.procs
		if p < cfg.clients%cfg.procs {
			n++
		}
		args := []string{"worker",
			"-urls", strings.Join(urls, ","), "-clients", itoa(n), "-first", itoa(first),
			"-local-ips", strings.Join(ips, ","), "-events", itoa(cfg.events), "-token", cfg.clientToken,
			"-protocol", cfg.protocol(), "-topic", cfg.topic,
			"-dial-concurrency", itoa(max(cfg.dialConcurrency/cfg.procs, 1))}
		if cfg.pages != "" {
			args = append(args, "-pages", cfg.pages, "-since", cfg.since, "-rest", cfg.rest)
		}
		if cfg.reconnect {
			args = append(args, "-reconnect")
		}
		if cfg.namePages {
			args = append(args, "-name-pages")
		}
		c, err := startChild(ctx, workerEnv(cfg), args...)
		if err != nil {
			ws.stop()
			return nil, err
		}
		ws.procs = append(ws.procs, c)
		first += n
	}
	for _, c := range ws.procs {
		l, err := c.line()
		if err != nil {
			ws.stop()
			return nil, fmt.Errorf("worker: %w", err)
		}
		var r workerReady
		if err := json.Unmarshal(l, &r); err != nil {
			ws.stop()
			return nil, fmt.Errorf("worker said %q", l)
		}
		ws.ready = append(ws.ready, r)
	}
	return ws, nil
}

// finish hands the workers the events' seqs and publish times and collects
// their results.
func (ws *workerSet) finish(fc finishCmd) ([]workerResult, error) {
	cmd, _ := json.Marshal(fc)
	cmd = append(cmd, '\n')
	for _, c := range ws.procs {
		if _, err := c.stdin.Write(cmd); err != nil {
			return nil, err
		}
	}
	var out []workerResult
	var errs []error
	for _, c := range ws.procs {
		l, err := c.line()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		var r workerResult
		if err := json.Unmarshal(l, &r); err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, r)
	}
	return out, errors.Join(errs...)
}

func (ws *workerSet) ticks() int64 {
	var total int64
	for _, c := range ws.procs {
		t, _ := cpuTicks(c.cmd.Process.Pid)
		total += t
	}
	return total
}

func (ws *workerSet) stop() {
	for _, c := range ws.procs {
		c.stop()
	}
}

// cleanRedis removes what an in-process run left in Redis: the hub's keys
// and the anchor's, which all start with its prefix + "anchor".
func cleanRedis(cfg wsConfig) {
	if cfg.redis != "" {
		deleteKeys(cfg.redis, cfg.prefix+"anchor*", cfg.prefix+"stream:deck", cfg.prefix+"epoch")
	}
}

// deleteKeys deletes the keys matching pattern, and the keys named.
func deleteKeys(redisURL, pattern string, keys ...string) {
	o, err := redis.ParseURL(redisURL)
	if err != nil {
		return
	}
	rdb := redis.NewClient(o)
	defer rdb.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if len(keys) > 0 {
		rdb.Del(ctx, keys...)
	}
	iter := rdb.Scan(ctx, 0, pattern, 500).Iterator()
	for iter.Next(ctx) {
		rdb.Del(ctx, iter.Val())
	}
}

// workerEnv gives each worker one P unless -worker-procs says otherwise:
// the workers are the instrument, and fewer threads fighting the server
// for two cores make its latency the server's, not the scheduler's.
func workerEnv(cfg wsConfig) []string {
	if cfg.workerProcs <= 0 {
		return nil
	}
	return []string{"GOMAXPROCS=" + itoa(cfg.workerProcs)}
}
