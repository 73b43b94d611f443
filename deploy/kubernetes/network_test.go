package deploykubernetes

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// privateRanges must not be reachable through any ipBlock: RFC 1918,
// loopback, link-local (cloud metadata), CGNAT, this network, multicast
// and reserved, and their IPv6 kin, IPv4-mapped and NAT64 included.
var privateRanges = []string{
	"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16",
	"172.16.0.0/12", "192.0.0.0/24", "192.168.0.0/16", "198.18.0.0/15",
	"224.0.0.0/4", "240.0.0.0/4",
	"::/128", "::1/128", "::ffff:0:0/96", "64:ff9b::/96", "64:ff9b:1::/48", "100::/64",
	"2001:db8::/32", "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8",
}

// admits reports whether the ipBlock admits any address of p: p overlaps
// its cidr and no except covers it.
func admits(b *networkingv1.IPBlock, p netip.Prefix) (bool, error) {
	cidr, err := netip.ParsePrefix(b.CIDR)
	if err != nil {
		return false, err
	}
	var excepts []netip.Prefix
	for _, e := range b.Except {
		ex, err := netip.ParsePrefix(e)
		if err != nil {
			return false, err
		}
		if !cidr.Contains(ex.Addr()) || ex.Bits() < cidr.Bits() {
			return false, fmt.Errorf("except %s is not inside %s", e, b.CIDR)
		}
		excepts = append(excepts, ex)
	}
	if cidr.Addr().Is4() != p.Addr().Is4() || !cidr.Overlaps(p) {
		return false, nil
	}
	for _, ex := range excepts {
		if ex.Bits() <= p.Bits() && ex.Contains(p.Addr()) {
			return false, nil
		}
	}
	return true, nil
}

func TestAdmits(t *testing.T) {
	open := &networkingv1.IPBlock{CIDR: "0.0.0.0/0"}
	carved := &networkingv1.IPBlock{CIDR: "0.0.0.0/0", Except: []string{"10.0.0.0/8"}}
	for _, tc := range []struct {
		b    *networkingv1.IPBlock
		p    string
		want bool
	}{
		{open, "10.1.0.0/16", true},
		{carved, "10.1.0.0/16", false},
		{carved, "8.0.0.0/7", true}, // 8/8 is public, 9/8 too
		{carved, "0.0.0.0/4", true}, // partly carved out only
		{carved, "fc00::/7", false}, // another family
		{&networkingv1.IPBlock{CIDR: "2000::/3"}, "2001:db8::/32", true},
	} {
		if got, err := admits(tc.b, netip.MustParsePrefix(tc.p)); got != tc.want || err != nil {
			t.Errorf("%v admits %s: %v %v, want %v", tc.b, tc.p, got, err, tc.want)
		}
	}
	if _, err := admits(&networkingv1.IPBlock{CIDR: "2000::/3", Except: []string{"fc00::/7"}}, netip.MustParsePrefix("fc00::/7")); err == nil {
		t.Error("an except outside the cidr was not noticed")
	}
}

func portsOf(r networkingv1.NetworkPolicyEgressRule) []string {
	var out []string
	for _, p := range r.Ports {
		proto := corev1.ProtocolTCP
		if p.Protocol != nil {
			proto = *p.Protocol
		}
		port := "any"
		if p.Port != nil {
			port = p.Port.String()
		}
		if p.EndPort != nil {
			port += fmt.Sprintf("-%d", *p.EndPort)
		}
		out = append(out, string(proto)+"/"+port)
	}
	slices.Sort(out)
	return out
}

// TestTheNetworkPolicyAdmitsOnlyDNSAndPublicHTTPS: the policy selects the
// pod, both directions are policed, and every egress rule is either the
// cluster DNS on port 53, the shared state's Redis pods on port 6379, or
// port 443 of ipBlocks that admit no private range.
func TestTheNetworkPolicyAdmitsOnlyDNSAndPublicHTTPS(t *testing.T) {
	m := loadManifests(t)
	np := m.policy(t)
	sel, err := metav1.LabelSelectorAsSelector(&np.Spec.PodSelector)
	if err != nil {
		t.Fatal(err)
	}
	if sel.Empty() || !sel.Matches(labels.Set(m.deployment(t).Spec.Template.Labels)) {
		t.Errorf("the NetworkPolicy's podSelector %v does not select rypsok's pod (alone)", sel)
	}
	if !slices.Contains(np.Spec.PolicyTypes, networkingv1.PolicyTypeEgress) || !slices.Contains(np.Spec.PolicyTypes, networkingv1.PolicyTypeIngress) {
		t.Errorf("policyTypes %v, want Ingress and Egress", np.Spec.PolicyTypes)
	}
	var dns, redis, https int
	for i, r := range np.Spec.Egress {
		where := fmt.Sprintf("egress rule %d", i)
		if len(r.To) == 0 || len(r.Ports) == 0 {
			t.Errorf("%s: an empty to or ports admits every destination or port", where)
			continue
		}
		blocks := 0
		for _, peer := range r.To {
			if peer.IPBlock != nil {
				blocks++
			}
		}
		switch {
		case blocks == 0 && len(r.To) == 1 && r.To[0].NamespaceSelector == nil && r.To[0].PodSelector != nil &&
			r.To[0].PodSelector.MatchLabels["app.kubernetes.io/name"] == redisName: // the shared state
			redis++
			if got := portsOf(r); !slices.Equal(got, []string{"TCP/6379"}) || len(r.To[0].PodSelector.MatchLabels) != 1 || len(r.To[0].PodSelector.MatchExpressions) > 0 {
				t.Errorf("%s (Redis): ports %v, selector %v: want the Redis pods, 6379 over TCP", where, got, r.To[0].PodSelector)
			}
		case blocks == 0: // the cluster DNS, by labels
			dns++
			if got := portsOf(r); !slices.Equal(got, []string{"TCP/53", "UDP/53"}) {
				t.Errorf("%s (DNS): ports %v, want 53 over UDP and TCP", where, got)
			}
			for _, peer := range r.To {
				ns, pod := peer.NamespaceSelector, peer.PodSelector
				if ns == nil || pod == nil || ns.MatchLabels["kubernetes.io/metadata.name"] != "kube-system" ||
					pod.MatchLabels["k8s-app"] != "kube-dns" || len(ns.MatchExpressions)+len(pod.MatchExpressions) > 0 {
					t.Errorf("%s (DNS): peer %+v is not kube-system's kube-dns", where, peer)
				}
			}
		case blocks == len(r.To): // the internet
			https++
			if got := portsOf(r); !slices.Equal(got, []string{"TCP/443"}) {
				t.Errorf("%s: ports %v, want 443 over TCP only", where, got)
			}
			families := map[bool]bool{}
			for _, peer := range r.To {
				cidr, err := netip.ParsePrefix(peer.IPBlock.CIDR)
				if err != nil {
					t.Errorf("%s: cidr %q: %v", where, peer.IPBlock.CIDR, err)
					continue
				}
				families[cidr.Addr().Is4()] = true
				for _, p := range privateRanges {
					ok, err := admits(peer.IPBlock, netip.MustParsePrefix(p))
					if err != nil {
						t.Errorf("%s: %v", where, err)
					}
					if ok {
						t.Errorf("%s: ipBlock %s admits the private range %s", where, peer.IPBlock.CIDR, p)
					}
				}
			}
			if !families[true] || !families[false] {
				t.Errorf("%s: want an IPv4 and an IPv6 block", where)
			}
		default:
			t.Errorf("%s mixes ipBlocks with selectors", where)
		}
	}
	if dns != 1 || redis != 1 || https != 1 {
		t.Errorf("%d DNS rules, %d Redis rules and %d https rules, want one of each", dns, redis, https)
	}
	front := container(t, m.pod(t), frontContainer)
	for i, r := range np.Spec.Ingress {
		for _, p := range r.Ports {
			if p.Port == nil || (*p.Port != intstr.FromInt32(front.Ports[0].ContainerPort) && p.Port.String() != front.Ports[0].Name) {
				t.Errorf("ingress rule %d admits port %v, not rypsok's", i, p.Port)
			}
		}
		if len(r.Ports) == 0 {
			t.Errorf("ingress rule %d admits every port", i)
		}
		for _, peer := range r.From {
			if peer.IPBlock != nil {
				t.Errorf("ingress rule %d admits an ipBlock: callers come from the cluster", i)
			}
		}
	}
}

// TestTheFirewallLetsOnlyTheEgressOut reads the rules the init containers
// install: jumped to first from OUTPUT, they accept loopback, replies,
// and the egress's user, and reject anything else; each init container
// restores them for its family, without flushing what is there.
func TestTheFirewallLetsOnlyTheEgressOut(t *testing.T) {
	m := loadManifests(t)
	pod := m.pod(t)
	egress := container(t, pod, egressContainer)
	uid := *egress.SecurityContext.RunAsUser
	for _, c := range allContainers(pod) {
		if c.Name != egressContainer && c.SecurityContext.RunAsUser != nil && *c.SecurityContext.RunAsUser == uid {
			t.Errorf("%s runs as the egress's user %d, which the firewall lets out", c.Name, uid)
		}
	}
	if psc := pod.SecurityContext; psc.RunAsUser != nil && *psc.RunAsUser == uid {
		t.Errorf("the pod's default user is the egress's %d", uid)
	}
	for family, binary := range map[string]string{"ipv4": "iptables-nft-restore", "ipv6": "ip6tables-nft-restore"} {
		c := container(t, pod, firewallPrefix+family)
		if len(c.Command) != 3 || c.Command[0] != binary || c.Command[1] != "--noflush" {
			t.Errorf("%s: command %q, want %s --noflush FILE", c.Name, c.Command, binary)
			continue
		}
		v, key := fileOf(t, pod, c, c.Command[2])
		if v.ConfigMap == nil || v.ConfigMap.Name != firewallConfig {
			t.Fatalf("%s: %s is not from the ConfigMap %s", c.Name, c.Command[2], firewallConfig)
		}
		rules := m.configMap(t, firewallConfig).Data[key]
		var extra []string
		if family == "ipv6" {
			extra = neighbourDiscovery
		}
		checkRules(t, c.Name, rules, uid, *container(t, pod, frontContainer).SecurityContext.RunAsUser, extra)
	}
}

// neighbourDiscovery are the ICMPv6 messages the kernel sends on its own
// (router and neighbour solicitations, neighbour advertisements, MLDv2
// reports): without them IPv6 reaches no neighbour, and no process can
// send them without NET_RAW.
var neighbourDiscovery = []string{
	"-p ipv6-icmp -m icmp6 --icmpv6-type 133 -j ACCEPT",
	"-p ipv6-icmp -m icmp6 --icmpv6-type 135 -j ACCEPT",
	"-p ipv6-icmp -m icmp6 --icmpv6-type 136 -j ACCEPT",
	"-p ipv6-icmp -m icmp6 --icmpv6-type 143 -j ACCEPT",
}

// checkRules checks an iptables-restore file: the filter table only, one
// chain of ours, jumped to first from OUTPUT; exactly these ACCEPT rules:
// loopback, replies, the egress's user, rypsok's user to Redis's port and
// DNS only (the shared state), and the family's extra ones; a final
// REJECT or DROP.
func checkRules(t *testing.T, who, rules string, uid, front int64, extra []string) {
	t.Helper()
	var lines []string
	for _, l := range strings.Split(rules, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	if len(lines) < 3 || lines[0] != "*filter" || lines[len(lines)-1] != "COMMIT" {
		t.Fatalf("%s: not one *filter table ending in COMMIT:\n%s", who, rules)
	}
	var chain string
	var jumped bool
	var rs []string
	for _, l := range lines[1 : len(lines)-1] {
		switch {
		case strings.HasPrefix(l, ":"):
			if chain != "" {
				t.Errorf("%s: more than one chain declared: %s", who, l)
			}
			chain = strings.Fields(l[1:])[0]
		case l == "-I OUTPUT 1 -j "+chain:
			jumped = true
		case strings.HasPrefix(l, "-A "+chain+" "):
			rs = append(rs, strings.TrimPrefix(l, "-A "+chain+" "))
		default:
			t.Errorf("%s: unexpected line %q", who, l)
		}
	}
	if !jumped {
		t.Errorf("%s: OUTPUT does not jump to %q first", who, chain)
	}
	want := []string{
		"-o lo -j ACCEPT",
		"-m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT",
		fmt.Sprintf("-m owner --uid-owner %d -j ACCEPT", uid),
		fmt.Sprintf("-p tcp --dport 6379 -m owner --uid-owner %d -j ACCEPT", front),
		fmt.Sprintf("-p udp --dport 53 -m owner --uid-owner %d -j ACCEPT", front),
		fmt.Sprintf("-p tcp --dport 53 -m owner --uid-owner %d -j ACCEPT", front),
	}
	want = append(want, extra...)
	if len(rs) != len(want)+1 || !slices.Equal(rs[:len(want)], want) {
		t.Fatalf("%s: rules %q, want %q then a REJECT or DROP", who, rs, want)
	}
	if last := rs[len(rs)-1]; last != "-j REJECT" && last != "-j DROP" {
		t.Errorf("%s: the last rule %q lets the rest through", who, last)
	}
}
