package main

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// raiseFileLimit lifts the soft RLIMIT_NOFILE to the hard one: every client
// and every server connection is a file descriptor.
func raiseFileLimit() {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return
	}
	if l.Cur < l.Max {
		l.Cur = l.Max
		_ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l)
	}
}

func fileLimit() uint64 {
	var l syscall.Rlimit
	_ = syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l)
	return l.Cur
}

// rssKB reads VmRSS of a process from /proc.
func rssKB(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				return strconv.ParseInt(f[0], 10, 64)
			}
		}
	}
	return 0, fmt.Errorf("no VmRSS for pid %d", pid)
}

// cpuTicks is a process's user+system time in clock ticks (1/100 s on Linux).
func cpuTicks(pid int) (int64, error) { return statTicks(pid, 2) }

// cpuTicksWithChildren is a process's CPU and that of the children it has
// reaped (PostgreSQL's postmaster: its ended sessions).
func cpuTicksWithChildren(pid int) (int64, error) { return statTicks(pid, 4) }

// statTicks sums the first n of /proc/PID/stat's utime, stime, cutime and
// cstime.
func statTicks(pid, n int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name may hold spaces; fields count from after its ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("odd /proc/%d/stat", pid)
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 11+n {
		return 0, fmt.Errorf("short /proc/%d/stat", pid)
	}
	var total int64
	for _, v := range f[11 : 11+n] {
		t, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("odd /proc/%d/stat", pid)
		}
		total += t
	}
	return total, nil
}

const ticksPerSecond = 100

// sumRSS and sumTicks add up several server processes.
func sumRSS(pids []int) (int64, error) {
	var total int64
	for _, p := range pids {
		kb, err := rssKB(p)
		if err != nil {
			return 0, err
		}
		total += kb
	}
	return total, nil
}

func sumTicks(pids []int) (int64, error) {
	var total int64
	for _, p := range pids {
		t, err := cpuTicks(p)
		if err != nil {
			return 0, err
		}
		total += t
	}
	return total, nil
}

// checkLoopback refuses any target outside 127.0.0.0/8 and ::1: this tool
// is for measuring a server on this machine only.
func checkLoopback(host string) error {
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("%q is not a loopback address; pitlane-load only targets this machine", host)
	}
	return nil
}
