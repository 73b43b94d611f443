package deploykubernetes

import (
	"net/url"
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// selects reports whether sel selects a pod labelled l.
func selects(t *testing.T, sel *metav1.LabelSelector, l map[string]string) bool {
	t.Helper()
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		t.Fatal(err)
	}
	return !s.Empty() && s.Matches(labels.Set(l))
}

// TestSeveralReplicas: the Deployment runs at least two replicas, a
// PodDisruptionBudget keeps one through voluntary disruptions, and an
// autoscaler scales the Deployment from at least two.
func TestSeveralReplicas(t *testing.T) {
	m := loadManifests(t)
	d := m.deployment(t)
	podLabels := d.Spec.Template.Labels
	if d.Spec.Replicas == nil || *d.Spec.Replicas < 2 {
		t.Errorf("replicas %v, want at least 2", d.Spec.Replicas)
	}
	pdb := named(t, "PodDisruptionBudget", m.budgets, func(p *policyv1.PodDisruptionBudget) string { return p.Name }, frontContainer)
	if !selects(t, pdb.Spec.Selector, podLabels) {
		t.Error("the PodDisruptionBudget does not select rypsok's pod")
	}
	if pdb.Spec.MinAvailable == nil || pdb.Spec.MinAvailable.IntValue() < 1 || pdb.Spec.MinAvailable.IntValue() >= int(*d.Spec.Replicas) {
		t.Errorf("minAvailable %v: want at least 1, below the replicas (or no pod could ever be drained)", pdb.Spec.MinAvailable)
	}
	hpa := named(t, "HorizontalPodAutoscaler", m.scalers, func(h *autoscalingv2.HorizontalPodAutoscaler) string { return h.Name }, frontContainer)
	if ref := hpa.Spec.ScaleTargetRef; ref.Kind != "Deployment" || ref.Name != d.Name || ref.APIVersion != "apps/v1" {
		t.Errorf("the autoscaler scales %+v, not the Deployment", ref)
	}
	if hpa.Spec.MinReplicas == nil || *hpa.Spec.MinReplicas < 2 || hpa.Spec.MaxReplicas < *hpa.Spec.MinReplicas {
		t.Errorf("autoscaler from %v to %d, want from at least 2", hpa.Spec.MinReplicas, hpa.Spec.MaxReplicas)
	}
	if len(hpa.Spec.Metrics) == 0 {
		t.Error("the autoscaler has no metric")
	}
}

// TestTheSharedStateIsTheFrontsOnly: rypsok's configuration points at the
// Redis Service of 50-redis.yaml, which selects the one Redis pod; that
// pod keeps nothing on disk, is locked down, admits rypsok's pods only on
// its port and opens no connection; rypsok's NetworkPolicy lets its pods
// reach the Redis pods on that port, and does not select them.
func TestTheSharedStateIsTheFrontsOnly(t *testing.T) {
	m := loadManifests(t)
	frontLabels := m.deployment(t).Spec.Template.Labels
	sts := named(t, "StatefulSet", m.sets, func(s *appsv1.StatefulSet) string { return s.Name }, redisName)
	redisLabels := sts.Spec.Template.Labels
	if !selects(t, sts.Spec.Selector, redisLabels) || selects(t, sts.Spec.Selector, frontLabels) {
		t.Error("the StatefulSet's selector does not select its own pod alone")
	}
	if len(sts.Spec.VolumeClaimTemplates) > 0 {
		t.Error("the Redis keeps a volume: its state is ephemeral by design")
	}
	pod := sts.Spec.Template.Spec
	if pod.AutomountServiceAccountToken == nil || *pod.AutomountServiceAccountToken || pod.SecurityContext == nil ||
		pod.SecurityContext.RunAsNonRoot == nil || !*pod.SecurityContext.RunAsNonRoot {
		t.Error("the Redis pod mounts a token or may run as root")
	}
	if len(pod.Containers) != 1 {
		t.Fatalf("%d containers, want 1", len(pod.Containers))
	}
	c := pod.Containers[0]
	sc := c.SecurityContext
	if sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem || sc.AllowPrivilegeEscalation == nil ||
		*sc.AllowPrivilegeEscalation || sc.Capabilities == nil || !slices.Equal(sc.Capabilities.Drop, []corev1.Capability{"ALL"}) {
		t.Errorf("the Redis container is not locked down: %+v", sc)
	}
	for _, res := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		req, lim := c.Resources.Requests[res], c.Resources.Limits[res]
		if req.Sign() <= 0 || req.Cmp(lim) > 0 {
			t.Errorf("redis: %s request %s, limit %s", res, req.String(), lim.String())
		}
	}
	for _, pair := range [][2]string{{"--save", ""}, {"--appendonly", "no"}} {
		i := slices.Index(c.Args, pair[0])
		if i < 0 || i+1 >= len(c.Args) || c.Args[i+1] != pair[1] {
			t.Errorf("redis args %q lack %s %q: no persistence", c.Args, pair[0], pair[1])
		}
	}

	svc := named(t, "Service", m.services, func(s *corev1.Service) string { return s.Name }, redisName)
	if !selects(t, &metav1.LabelSelector{MatchLabels: svc.Spec.Selector}, redisLabels) || selects(t, &metav1.LabelSelector{MatchLabels: svc.Spec.Selector}, frontLabels) {
		t.Error("the Redis Service does not select the Redis pod alone")
	}
	if len(svc.Spec.Ports) != 1 || svc.Spec.Ports[0].TargetPort.String() != c.Ports[0].Name {
		t.Fatalf("the Redis Service's ports %+v do not reach the container's %+v", svc.Spec.Ports, c.Ports)
	}
	port := svc.Spec.Ports[0].Port

	fc, _ := parseConfigs(t, m)
	u, err := url.Parse(fc.SharedState.URL)
	if err != nil || u.Hostname() != redisName+"."+namespace+".svc" || u.Port() != "6379" || port != 6379 {
		t.Errorf("[shared_state] url names %s:%s, want %s.%s.svc:%d", u.Hostname(), u.Port(), redisName, namespace, port)
	}

	np := named(t, "NetworkPolicy", m.policies, func(p *networkingv1.NetworkPolicy) string { return p.Name }, redisName)
	if !selects(t, &np.Spec.PodSelector, redisLabels) || selects(t, &np.Spec.PodSelector, frontLabels) {
		t.Error("the Redis NetworkPolicy does not select the Redis pod alone")
	}
	if !slices.Contains(np.Spec.PolicyTypes, networkingv1.PolicyTypeEgress) || len(np.Spec.Egress) > 0 {
		t.Error("the Redis pod may open connections")
	}
	if len(np.Spec.Ingress) != 1 {
		t.Fatalf("%d ingress rules, want 1", len(np.Spec.Ingress))
	}
	in := np.Spec.Ingress[0]
	if got := portsOf(networkingv1.NetworkPolicyEgressRule{Ports: in.Ports}); !slices.Equal(got, []string{"TCP/6379"}) {
		t.Errorf("the Redis pod admits ports %v, want 6379 over TCP", got)
	}
	for _, peer := range in.From {
		if peer.IPBlock != nil || peer.NamespaceSelector != nil || peer.PodSelector == nil || !selects(t, peer.PodSelector, frontLabels) || selects(t, peer.PodSelector, redisLabels) {
			t.Errorf("the Redis pod admits %+v, not rypsok's pods alone", peer)
		}
	}
	if len(in.From) == 0 {
		t.Error("the Redis pod admits every source")
	}
	if selects(t, &m.policy(t).Spec.PodSelector, redisLabels) {
		t.Error("rypsok's NetworkPolicy selects the Redis pod too")
	}
}
