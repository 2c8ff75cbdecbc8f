package trigger

import (
	"net"
	"os"
)

// MachineIP is the address Java's IpUtil.getIp() prints as the trigger
// machine (scheduler.md §6): the host name's address if it is a
// non-loopback IPv4 address, else the first IPv4 address of an up,
// non-loopback interface, else 127.0.0.1. Compute it once at start-up.
func MachineIP() string {
	if host, err := os.Hostname(); err == nil {
		if ips, err := net.LookupIP(host); err == nil {
			for _, ip := range ips {
				if usableIP(ip) {
					return ip.String()
				}
			}
		}
	}
	ifaces, err := net.Interfaces()
	if err == nil {
		for _, iface := range ifaces {
			if iface.Flags&net.FlagUp == 0 || iface.Flags&net.FlagLoopback != 0 {
				continue
			}
			addrs, err := iface.Addrs()
			if err != nil {
				continue
			}
			for _, a := range addrs {
				if n, ok := a.(*net.IPNet); ok && usableIP(n.IP) {
					return n.IP.String()
				}
			}
		}
	}
	return "127.0.0.1"
}

// usableIP is Java's isValidV4Address test: IPv4, not loopback, not the
// any-address.
func usableIP(ip net.IP) bool {
	v4 := ip.To4()
	return v4 != nil && !v4.IsLoopback() && !v4.IsUnspecified()
}
