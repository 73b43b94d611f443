package deploykubernetes

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	toml "github.com/pelletier/go-toml/v2"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// The names the manifests use; the tests find everything else from them.
const (
	namespace       = "rypsok"
	frontContainer  = "rypsok"
	egressContainer = "egress"
	firewallPrefix  = "firewall-"
	frontConfigMap  = "rypsok"
	egressConfigMap = "rypsok-egress"
	firewallConfig  = "rypsok-firewall"
	tokenSecret     = "rypsok-token"
	braveSecret     = "rypsok-brave"
	socketVolume    = "egress-socket"
	redisName       = "rypsok-redis" // the shared state's StatefulSet, Service and NetworkPolicy
)

// The design's memory ceilings (REQ-PERF: front ≤ 128 MiB, egress ≤ 64 MiB).
const (
	frontMemoryCeiling  = 128 << 20
	egressMemoryCeiling = 64 << 20
)

// manifests are the objects of this directory, decoded strictly.
type manifests struct {
	files      map[string][]string // file -> "kind/name" of its objects
	namespaces []*corev1.Namespace
	configMaps map[string]*corev1.ConfigMap
	services   []*corev1.Service
	deploys    []*appsv1.Deployment
	policies   []*networkingv1.NetworkPolicy
	sets       []*appsv1.StatefulSet
	budgets    []*policyv1.PodDisruptionBudget
	scalers    []*autoscalingv2.HorizontalPodAutoscaler
}

// kinds are the kinds a manifest here may hold, by apiVersion and kind.
var kinds = map[string]func() any{
	"v1/Namespace":                       func() any { return new(corev1.Namespace) },
	"v1/ConfigMap":                       func() any { return new(corev1.ConfigMap) },
	"v1/Service":                         func() any { return new(corev1.Service) },
	"apps/v1/Deployment":                 func() any { return new(appsv1.Deployment) },
	"networking.k8s.io/v1/NetworkPolicy": func() any { return new(networkingv1.NetworkPolicy) },
	"apps/v1/StatefulSet":                func() any { return new(appsv1.StatefulSet) },
	"policy/v1/PodDisruptionBudget":      func() any { return new(policyv1.PodDisruptionBudget) },
	"autoscaling/v2/HorizontalPodAutoscaler": func() any {
		return new(autoscalingv2.HorizontalPodAutoscaler)
	},
}

// decodeStrict decodes one YAML document into obj as the API server
// would, only stricter: duplicate keys, unknown fields and fields in the
// wrong case are errors, and so is any value its type refuses (a malformed
// quantity, for example).
func decodeStrict(doc []byte, obj any) error {
	js, err := yaml.YAMLToJSONStrict(doc)
	if err != nil {
		return err
	}
	strict, err := kjson.UnmarshalStrict(js, obj, kjson.DisallowDuplicateFields, kjson.DisallowUnknownFields)
	if err != nil {
		return err
	}
	return errors.Join(strict...)
}

// documents splits a YAML stream on its "---" lines and drops the
// documents that hold only comments.
func documents(data []byte) [][]byte {
	var docs [][]byte
	for _, doc := range regexp.MustCompile(`(?m)^---\s*$`).Split(string(data), -1) {
		js, err := yaml.YAMLToJSON([]byte(doc))
		if err == nil && string(js) == "null" {
			continue
		}
		docs = append(docs, []byte(doc))
	}
	return docs
}

// decodeObject decodes one document into the type of its apiVersion and
// kind.
func decodeObject(doc []byte) (any, string, error) {
	var head struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if err := yaml.Unmarshal(doc, &head); err != nil {
		return nil, "", err
	}
	newObj, ok := kinds[head.APIVersion+"/"+head.Kind]
	if !ok {
		return nil, "", fmt.Errorf("apiVersion %q kind %q: not a kind these manifests use", head.APIVersion, head.Kind)
	}
	obj := newObj()
	if err := decodeStrict(doc, obj); err != nil {
		return nil, "", fmt.Errorf("%s: %w", head.Kind, err)
	}
	return obj, head.Kind, nil
}

func loadManifests(t *testing.T) *manifests {
	t.Helper()
	paths, err := filepath.Glob("*.y*ml")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no manifest")
	}
	m := &manifests{files: map[string][]string{}, configMaps: map[string]*corev1.ConfigMap{}}
	for _, path := range paths {
		if ext := filepath.Ext(path); ext != ".yaml" {
			t.Errorf("%s: name manifests *.yaml", path)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		docs := documents(data)
		if len(docs) == 0 {
			t.Errorf("%s: no object", path)
		}
		for i, doc := range docs {
			obj, kind, err := decodeObject(doc)
			if err != nil {
				t.Errorf("%s, document %d: %v", path, i+1, err)
				continue
			}
			meta, ok := obj.(metav1.Object)
			if !ok {
				t.Fatalf("%s: %s has no metadata", path, kind)
			}
			name, ns := meta.GetName(), meta.GetNamespace()
			switch o := obj.(type) {
			case *corev1.Namespace:
				m.namespaces = append(m.namespaces, o)
				ns = o.Name
			case *corev1.ConfigMap:
				if m.configMaps[o.Name] != nil {
					t.Errorf("%s: ConfigMap %s defined twice", path, o.Name)
				}
				m.configMaps[o.Name] = o
			case *corev1.Service:
				m.services = append(m.services, o)
			case *appsv1.Deployment:
				m.deploys = append(m.deploys, o)
			case *networkingv1.NetworkPolicy:
				m.policies = append(m.policies, o)
			case *appsv1.StatefulSet:
				m.sets = append(m.sets, o)
			case *policyv1.PodDisruptionBudget:
				m.budgets = append(m.budgets, o)
			case *autoscalingv2.HorizontalPodAutoscaler:
				m.scalers = append(m.scalers, o)
			}
			for _, problem := range validation.IsDNS1123Subdomain(name) {
				t.Errorf("%s: %s name %q: %s", path, kind, name, problem)
			}
			if ns != namespace {
				t.Errorf("%s: %s %s is in namespace %q, not %q", path, kind, name, ns, namespace)
			}
			m.files[path] = append(m.files[path], kind+"/"+name)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	return m
}

// The one Deployment; rypsok's Service and NetworkPolicy (the shared
// state's have their own, named redisName).
func (m *manifests) deployment(t *testing.T) *appsv1.Deployment {
	t.Helper()
	if len(m.deploys) != 1 {
		t.Fatalf("%d Deployments, want 1", len(m.deploys))
	}
	return m.deploys[0]
}

func (m *manifests) service(t *testing.T) *corev1.Service {
	t.Helper()
	return named(t, "Service", m.services, func(s *corev1.Service) string { return s.Name }, frontContainer)
}

func (m *manifests) policy(t *testing.T) *networkingv1.NetworkPolicy {
	t.Helper()
	return named(t, "NetworkPolicy", m.policies, func(p *networkingv1.NetworkPolicy) string { return p.Name }, frontContainer)
}

// named returns the one object of objs called name.
func named[T any](t *testing.T, kind string, objs []T, nameOf func(T) string, name string) T {
	t.Helper()
	var found []T
	for _, o := range objs {
		if nameOf(o) == name {
			found = append(found, o)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d %ss named %s, want 1", len(found), kind, name)
	}
	return found[0]
}

func (m *manifests) configMap(t *testing.T, name string) *corev1.ConfigMap {
	t.Helper()
	cm := m.configMaps[name]
	if cm == nil {
		t.Fatalf("no ConfigMap %s", name)
	}
	return cm
}

// pod is the Deployment's pod template.
func (m *manifests) pod(t *testing.T) *corev1.PodSpec {
	t.Helper()
	return &m.deployment(t).Spec.Template.Spec
}

// allContainers are the pod's init containers (the native sidecar among
// them) and containers, in start order.
func allContainers(pod *corev1.PodSpec) []*corev1.Container {
	var out []*corev1.Container
	for i := range pod.InitContainers {
		out = append(out, &pod.InitContainers[i])
	}
	for i := range pod.Containers {
		out = append(out, &pod.Containers[i])
	}
	return out
}

func container(t *testing.T, pod *corev1.PodSpec, name string) *corev1.Container {
	t.Helper()
	for _, c := range allContainers(pod) {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no container %s", name)
	return nil
}

func volume(t *testing.T, pod *corev1.PodSpec, name string) *corev1.Volume {
	t.Helper()
	for i := range pod.Volumes {
		if pod.Volumes[i].Name == name {
			return &pod.Volumes[i]
		}
	}
	t.Fatalf("no volume %s", name)
	return nil
}

// mountOf returns c's mount of the volume named name, or nil.
func mountOf(c *corev1.Container, name string) *corev1.VolumeMount {
	for i := range c.VolumeMounts {
		if c.VolumeMounts[i].Name == name {
			return &c.VolumeMounts[i]
		}
	}
	return nil
}

// mounters are the names of the containers that mount the volume name.
func mounters(pod *corev1.PodSpec, name string) []string {
	var out []string
	for _, c := range allContainers(pod) {
		if mountOf(c, name) != nil {
			out = append(out, c.Name)
		}
	}
	return out
}

// fileOf finds which volume of c holds path, and the key of the
// ConfigMap or Secret item at that path: the volume, the key.
func fileOf(t *testing.T, pod *corev1.PodSpec, c *corev1.Container, path string) (*corev1.Volume, string) {
	t.Helper()
	for _, vm := range c.VolumeMounts {
		rel, err := filepath.Rel(vm.MountPath, path)
		if err != nil || strings.HasPrefix(rel, "..") || vm.SubPath != "" {
			continue
		}
		v := volume(t, pod, vm.Name)
		var items []corev1.KeyToPath
		switch {
		case v.ConfigMap != nil:
			items = v.ConfigMap.Items
		case v.Secret != nil:
			items = v.Secret.Items
		default:
			t.Fatalf("%s: %s is on volume %s, neither a ConfigMap nor a Secret", c.Name, path, v.Name)
		}
		if len(items) == 0 {
			return v, rel // every key is a file
		}
		for _, it := range items {
			if it.Path == rel {
				return v, it.Key
			}
		}
		t.Fatalf("%s: no item of volume %s is at %s", c.Name, v.Name, path)
	}
	t.Fatalf("%s: %s is on no volume of the container", c.Name, path)
	return nil, ""
}

// configFile returns the --config argument of c's args (or of a probe's
// command) and the content of that file, from its ConfigMap.
func (m *manifests) configFile(t *testing.T, c *corev1.Container) (path, content string) {
	t.Helper()
	path = flagValue(c.Args, "--config")
	if path == "" {
		t.Fatalf("%s: no --config in %q", c.Name, c.Args)
	}
	v, key := fileOf(t, m.pod(t), c, path)
	if v.ConfigMap == nil {
		t.Fatalf("%s: %s is not from a ConfigMap", c.Name, path)
	}
	data, ok := m.configMap(t, v.ConfigMap.Name).Data[key]
	if !ok {
		t.Fatalf("ConfigMap %s has no key %s", v.ConfigMap.Name, key)
	}
	return path, data
}

// flagValue returns the value of --name in args ("--name v" or
// "--name=v"), "" when absent.
func flagValue(args []string, name string) string {
	for i, a := range args {
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
	}
	return ""
}

// tomlTable decodes TOML leniently, for the raw values of a few keys.
func tomlTable(t *testing.T, data string) map[string]any {
	t.Helper()
	var v map[string]any
	if err := toml.Unmarshal([]byte(data), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func tomlString(v map[string]any, keys ...string) string {
	for _, k := range keys[:len(keys)-1] {
		next, _ := v[k].(map[string]any)
		v = next
	}
	s, _ := v[keys[len(keys)-1]].(string)
	return s
}

func TestManifestsDecodeStrictly(t *testing.T) {
	m := loadManifests(t)
	var all []string
	for _, objs := range m.files {
		all = append(all, objs...)
	}
	sort.Strings(all)
	want := []string{
		"ConfigMap/" + frontConfigMap, "ConfigMap/" + egressConfigMap, "ConfigMap/" + firewallConfig,
		"Deployment/rypsok", "Namespace/" + namespace, "NetworkPolicy/rypsok", "Service/rypsok",
		"PodDisruptionBudget/rypsok", "HorizontalPodAutoscaler/rypsok",
		"StatefulSet/" + redisName, "Service/" + redisName, "NetworkPolicy/" + redisName,
	}
	sort.Strings(want)
	if !slices.Equal(all, want) {
		t.Errorf("objects %v, want %v", all, want)
	}
	pod := m.pod(t)
	for _, c := range allContainers(pod) {
		for _, problem := range validation.IsDNS1123Label(c.Name) {
			t.Errorf("container %q: %s", c.Name, problem)
		}
		for _, p := range c.Ports {
			for _, problem := range validation.IsValidPortName(p.Name) {
				t.Errorf("%s: port %q: %s", c.Name, p.Name, problem)
			}
		}
		for _, vm := range c.VolumeMounts {
			volume(t, pod, vm.Name) // every mount names a volume
		}
	}
	for _, v := range pod.Volumes {
		for _, problem := range validation.IsDNS1123Label(v.Name) {
			t.Errorf("volume %q: %s", v.Name, problem)
		}
		if len(mounters(pod, v.Name)) == 0 {
			t.Errorf("volume %s is mounted by no container", v.Name)
		}
		if v.ConfigMap != nil {
			cm := m.configMap(t, v.ConfigMap.Name)
			for _, it := range v.ConfigMap.Items {
				if _, ok := cm.Data[it.Key]; !ok {
					t.Errorf("volume %s: ConfigMap %s has no key %s", v.Name, cm.Name, it.Key)
				}
			}
		}
	}
}

// TestStrictDecodingCatchesTypos: the decoder the other tests rely on
// refuses what the API server would silently drop or misread.
func TestStrictDecodingCatchesTypos(t *testing.T) {
	data, err := os.ReadFile("20-deployment.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := decodeObject(data); err != nil {
		t.Fatalf("the Deployment itself: %v", err)
	}
	for _, tc := range []struct{ name, old, new string }{
		{"a misspelt field", "readOnlyRootFilesystem: true", "readOnlyRootFileSystem: true"},
		{"a field in the wrong case", "runAsNonRoot: true", "RunAsNonRoot: true"},
		{"a field at the wrong level", "  replicas: 2", "  replica: 2"},
		{"a duplicate key", "  replicas: 2", "  replicas: 2\n  replicas: 3"},
		{"a malformed quantity", "memory: 128Mi", "memory: 128MB!"},
		{"a wrong type", "periodSeconds: 10", "periodSeconds: ten"},
	} {
		bad := strings.Replace(string(data), tc.old, tc.new, 1)
		if bad == string(data) {
			t.Fatalf("%s: %q is not in the Deployment", tc.name, tc.old)
		}
		if _, _, err := decodeObject([]byte(bad)); err == nil {
			t.Errorf("%s: decoded without an error", tc.name)
		}
	}
	if _, _, err := decodeObject([]byte("apiVersion: v1\nkind: Pod\nmetadata: {name: x}\n")); err == nil {
		t.Error("a kind the manifests do not use: decoded without an error")
	}
}

// TestEveryContainerIsLockedDown: non-root (the firewall init containers
// excepted: root with NET_ADMIN only), read-only root filesystem, every
// capability dropped, no privilege escalation, seccomp RuntimeDefault,
// pinned images; the pod shares nothing with its node.
func TestEveryContainerIsLockedDown(t *testing.T) {
	m := loadManifests(t)
	pod := m.pod(t)
	psc := pod.SecurityContext
	switch {
	case psc == nil:
		t.Fatal("no pod securityContext")
	case psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot:
		t.Error("pod: runAsNonRoot is not true")
	case psc.SeccompProfile == nil || psc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault:
		t.Error("pod: seccompProfile is not RuntimeDefault")
	}
	if pod.HostNetwork || pod.HostPID || pod.HostIPC {
		t.Error("the pod shares a namespace with its node")
	}
	if pod.AutomountServiceAccountToken == nil || *pod.AutomountServiceAccountToken {
		t.Error("the pod mounts a service account token: rypsok needs no Kubernetes API")
	}
	tags := map[string]string{}
	for _, c := range allContainers(pod) {
		sc := c.SecurityContext
		if sc == nil {
			t.Errorf("%s: no securityContext", c.Name)
			continue
		}
		if sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
			t.Errorf("%s: readOnlyRootFilesystem is not true", c.Name)
		}
		if sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
			t.Errorf("%s: allowPrivilegeEscalation is not false", c.Name)
		}
		if sc.Privileged != nil && *sc.Privileged {
			t.Errorf("%s: privileged", c.Name)
		}
		if sc.ProcMount != nil && *sc.ProcMount != corev1.DefaultProcMount {
			t.Errorf("%s: procMount %s", c.Name, *sc.ProcMount)
		}
		if sc.SeccompProfile == nil || sc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
			t.Errorf("%s: seccompProfile is not RuntimeDefault", c.Name)
		}
		var drop, add []string
		if sc.Capabilities != nil {
			for _, d := range sc.Capabilities.Drop {
				drop = append(drop, string(d))
			}
			for _, a := range sc.Capabilities.Add {
				add = append(add, string(a))
			}
		}
		if !slices.Equal(drop, []string{"ALL"}) {
			t.Errorf("%s: capabilities dropped %v, want [ALL]", c.Name, drop)
		}
		if strings.HasPrefix(c.Name, firewallPrefix) {
			if sc.RunAsUser == nil || *sc.RunAsUser != 0 || !slices.Equal(add, []string{"NET_ADMIN"}) {
				t.Errorf("%s: a firewall init container runs as root with NET_ADMIN only; got user %v, added %v", c.Name, sc.RunAsUser, add)
			}
			if c.RestartPolicy != nil {
				t.Errorf("%s: a firewall init container runs once, not as a sidecar", c.Name)
			}
		} else {
			if sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot || sc.RunAsUser == nil || *sc.RunAsUser == 0 {
				t.Errorf("%s: not a non-root user (runAsNonRoot %v, runAsUser %v)", c.Name, sc.RunAsNonRoot, sc.RunAsUser)
			}
			if len(add) > 0 {
				t.Errorf("%s: adds capabilities %v", c.Name, add)
			}
		}
		ref := c.Image
		last := ref[strings.LastIndex(ref, "/")+1:]
		name, tag, ok := strings.Cut(last, ":")
		if !ok || tag == "" || tag == "latest" {
			t.Errorf("%s: image %q is not pinned to a tag", c.Name, ref)
		}
		tags[name] = tag
		if c.ImagePullPolicy == corev1.PullNever {
			t.Errorf("%s: imagePullPolicy Never", c.Name)
		}
	}
	if tags["rypsok"] == "" || tags["rypsok"] != tags["rypsok-egress"] {
		t.Errorf("the rypsok and rypsok-egress images are of different versions: %v", tags)
	}
}

// TestResourcesAreBounded: requests and limits for CPU and memory on
// every container, the design's memory ceilings, and a Go memory limit
// under the container's.
func TestResourcesAreBounded(t *testing.T) {
	m := loadManifests(t)
	pod := m.pod(t)
	for _, c := range allContainers(pod) {
		for _, res := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
			req, okReq := c.Resources.Requests[res]
			lim, okLim := c.Resources.Limits[res]
			switch {
			case !okReq || !okLim:
				t.Errorf("%s: %s request or limit missing", c.Name, res)
			case req.Sign() <= 0 || req.Cmp(lim) > 0:
				t.Errorf("%s: %s request %s, limit %s", c.Name, res, req.String(), lim.String())
			}
		}
		lim := c.Resources.Limits.Memory().Value()
		for _, e := range c.Env {
			if e.Name != "GOMEMLIMIT" {
				continue
			}
			n, err := parseGoBytes(e.Value)
			if err != nil || n >= lim {
				t.Errorf("%s: GOMEMLIMIT %q (%v) is not under the memory limit %d", c.Name, e.Value, err, lim)
			}
		}
	}
	for name, ceiling := range map[string]int64{frontContainer: frontMemoryCeiling, egressContainer: egressMemoryCeiling} {
		c := container(t, pod, name)
		if lim := c.Resources.Limits.Memory().Value(); lim > ceiling {
			t.Errorf("%s: memory limit %d above the design's %d", name, lim, ceiling)
		}
		if !slices.ContainsFunc(c.Env, func(e corev1.EnvVar) bool { return e.Name == "GOMEMLIMIT" }) {
			t.Errorf("%s: no GOMEMLIMIT: the collector would let the heap reach the container's limit", name)
		}
	}
}

// parseGoBytes parses a GOMEMLIMIT value: a number and a unit of B, KiB,
// MiB, GiB or TiB.
func parseGoBytes(s string) (int64, error) {
	units := []struct {
		suffix string
		factor int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}}
	for _, u := range units {
		if num, ok := strings.CutSuffix(s, u.suffix); ok {
			var n int64
			if _, err := fmt.Sscanf(num, "%d", &n); err != nil || fmt.Sprint(n) != num || n <= 0 {
				return 0, fmt.Errorf("not a GOMEMLIMIT value: %q", s)
			}
			return n * u.factor, nil
		}
	}
	return 0, fmt.Errorf("not a GOMEMLIMIT value: %q", s)
}

// TestProbesMeanSomething: every probe of rypsok and of its egress is
// the binary's own healthcheck on the very configuration the container
// serves, and the healthcheck accepts that command line.
func TestProbesMeanSomething(t *testing.T) {
	m := loadManifests(t)
	pod := m.pod(t)
	front, egress := container(t, pod, frontContainer), container(t, pod, egressContainer)

	frontCfg, _ := m.configFile(t, front)
	if !slices.Equal(front.Args, []string{"serve", "--transport", "http", "--config", frontCfg}) {
		t.Errorf("rypsok's args %q, want serve --transport http --config FILE", front.Args)
	}
	healthcheck := []string{front.Command[0], "healthcheck", "--config", frontCfg}
	checkProbe(t, front, "readiness", front.ReadinessProbe, healthcheck)
	checkProbe(t, front, "liveness", front.LivenessProbe, append(slices.Clone(healthcheck), "--egress=false"))

	egressCfg, _ := m.configFile(t, egress)
	if !slices.Equal(egress.Args, []string{"--config", egressCfg}) {
		t.Errorf("the egress's args %q, want --config FILE", egress.Args)
	}
	egressCheck := []string{egress.Command[0], "healthcheck", "--config", egressCfg}
	checkProbe(t, egress, "startup", egress.StartupProbe, egressCheck)
	checkProbe(t, egress, "readiness", egress.ReadinessProbe, egressCheck)
	checkProbe(t, egress, "liveness", egress.LivenessProbe, egressCheck)
}

// probeTimeoutSeconds is the least timeoutSeconds of a probe: above the
// healthchecks' own deadline (4 s), so that they report why they failed.
const probeTimeoutSeconds = 5

func checkProbe(t *testing.T, c *corev1.Container, kind string, p *corev1.Probe, want []string) {
	t.Helper()
	switch {
	case p == nil:
		t.Errorf("%s: no %s probe", c.Name, kind)
	case p.Exec == nil || p.HTTPGet != nil || p.TCPSocket != nil || p.GRPC != nil:
		t.Errorf("%s: the %s probe is not an exec of the healthcheck", c.Name, kind)
	case !slices.Equal(p.Exec.Command, want):
		t.Errorf("%s: the %s probe runs %q, want %q", c.Name, kind, p.Exec.Command, want)
	case p.TimeoutSeconds < probeTimeoutSeconds:
		t.Errorf("%s: the %s probe's timeoutSeconds %d is under %d", c.Name, kind, p.TimeoutSeconds, probeTimeoutSeconds)
	case p.PeriodSeconds <= 0 || p.FailureThreshold <= 0:
		t.Errorf("%s: the %s probe has no period or failure threshold", c.Name, kind)
	}
}

// TestTheEgressIsASidecarAfterTheFirewall: the firewall is installed
// before any other container starts; the egress is a native sidecar, so
// it is ready before rypsok starts and stops after rypsok.
func TestTheEgressIsASidecarAfterTheFirewall(t *testing.T) {
	m := loadManifests(t)
	pod := m.pod(t)
	var names []string
	for _, c := range pod.InitContainers {
		names = append(names, c.Name)
	}
	if !slices.Equal(names, []string{firewallPrefix + "ipv4", firewallPrefix + "ipv6", egressContainer}) {
		t.Errorf("init containers %v, want the two firewalls, then the egress", names)
	}
	egress := container(t, pod, egressContainer)
	if egress.RestartPolicy == nil || *egress.RestartPolicy != corev1.ContainerRestartPolicyAlways {
		t.Error("the egress is not a native sidecar (restartPolicy: Always)")
	}
	if len(pod.Containers) != 1 || pod.Containers[0].Name != frontContainer {
		t.Errorf("containers: want rypsok alone")
	}
	if g := pod.TerminationGracePeriodSeconds; g == nil || *g < 15+10 {
		t.Errorf("terminationGracePeriodSeconds %v: rypsok's drain (LIM-F5, 15 s) then the egress's (10 s) need more", g)
	}
}

// TestTheSocketIsShared: the egress listens where rypsok connects, on an
// emptyDir that only the two mount, read-only for rypsok; the socket's
// group is one rypsok's user is in and the egress may give it.
func TestTheSocketIsShared(t *testing.T) {
	m := loadManifests(t)
	pod := m.pod(t)
	front, egress := container(t, pod, frontContainer), container(t, pod, egressContainer)
	v := volume(t, pod, socketVolume)
	if v.EmptyDir == nil {
		t.Fatalf("volume %s is not an emptyDir", socketVolume)
	}
	if got := mounters(pod, socketVolume); !slices.Equal(got, []string{egressContainer, frontContainer}) {
		t.Errorf("%s is mounted by %v, want the egress and rypsok only", socketVolume, got)
	}
	fm, em := mountOf(front, socketVolume), mountOf(egress, socketVolume)
	if !fm.ReadOnly || em.ReadOnly {
		t.Errorf("socket volume: rypsok's mount read-only %v (want true), the egress's %v (want false)", fm.ReadOnly, em.ReadOnly)
	}
	if fm.MountPath != em.MountPath {
		t.Errorf("the socket volume is at %s in rypsok and %s in the egress", fm.MountPath, em.MountPath)
	}
	fc, ec := parseConfigs(t, m)
	if fc.Egress.Socket == "" || fc.Egress.Socket != ec.Socket {
		t.Fatalf("rypsok's [egress] socket %q, the egress's [listen] socket %q: want one path", fc.Egress.Socket, ec.Socket)
	}
	if filepath.Dir(ec.Socket) != em.MountPath {
		t.Errorf("the socket %s is not on the shared volume at %s", ec.Socket, em.MountPath)
	}
	fsc, esc := front.SecurityContext, egress.SecurityContext
	if ec.GID < 0 {
		t.Fatal("the egress's [listen] group is not set: its socket would be 0600, closed to rypsok's user")
	}
	if fsc.RunAsGroup == nil || int(*fsc.RunAsGroup) != ec.GID {
		t.Errorf("rypsok's group %v is not the socket's group %d", fsc.RunAsGroup, ec.GID)
	}
	if esc.RunAsGroup == nil || int(*esc.RunAsGroup) != ec.GID {
		t.Errorf("the egress's group %v is not the socket's group %d: it could not give the socket that group", esc.RunAsGroup, ec.GID)
	}
	if *fsc.RunAsUser == *esc.RunAsUser {
		t.Error("rypsok and the egress run as one user: the firewall could not tell them apart")
	}
}

// TestConfigMapsAreMountedWhereTheyBelong: each container sees only its
// own configuration; the egress's is the network team's ConfigMap.
func TestConfigMapsAreMountedWhereTheyBelong(t *testing.T) {
	m := loadManifests(t)
	pod := m.pod(t)
	want := map[string][]string{
		frontConfigMap:  {frontContainer},
		egressConfigMap: {egressContainer},
		firewallConfig:  {firewallPrefix + "ipv4", firewallPrefix + "ipv6"},
	}
	for _, v := range pod.Volumes {
		if v.ConfigMap == nil {
			continue
		}
		if got := mounters(pod, v.Name); !slices.Equal(got, want[v.ConfigMap.Name]) {
			t.Errorf("ConfigMap %s is mounted by %v, want %v", v.ConfigMap.Name, got, want[v.ConfigMap.Name])
		}
	}
	if m.configMap(t, egressConfigMap).Annotations["owner"] != "network-team" {
		t.Error("the egress's ConfigMap does not say the network team owns it")
	}
}

// secretFiles writes stand-ins for the files the Secrets mount, and
// returns rypsok's configuration with their paths in place of the
// mounted ones.
func secretFiles(t *testing.T, content string) string {
	t.Helper()
	raw := tomlTable(t, content)
	dir := t.TempDir()
	for i, keys := range [][]string{{"service", "token_file"}, {"engines", "brave", "api_key_file"}} {
		path := tomlString(raw, keys...)
		if path == "" {
			t.Fatalf("rypsok's configuration has no %s", strings.Join(keys, "."))
		}
		stand := filepath.Join(dir, fmt.Sprintf("secret-%d", i))
		if err := os.WriteFile(stand, []byte("a-stand-in-secret-0123456789\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		content = strings.ReplaceAll(content, fmt.Sprintf("%q", path), fmt.Sprintf("%q", stand))
	}
	return content
}

// TestTheTokenComesFromASecret: [service] token_file is a file of the
// Secret rypsok-token, mounted in rypsok's container only; no token is in
// an environment variable; Brave's key is an optional Secret's file.
func TestTheTokenComesFromASecret(t *testing.T) {
	m := loadManifests(t)
	pod := m.pod(t)
	front := container(t, pod, frontContainer)
	_, content := m.configFile(t, front)
	raw := tomlTable(t, content)
	if tomlString(raw, "service", "token_env") != "" {
		t.Error("[service] token_env: the token must come from the Secret's file")
	}
	for _, tc := range []struct {
		keys     []string
		secret   string
		optional bool
	}{
		{[]string{"service", "token_file"}, tokenSecret, false},
		{[]string{"engines", "brave", "api_key_file"}, braveSecret, true},
	} {
		path := tomlString(raw, tc.keys...)
		v, key := fileOf(t, pod, front, path)
		if v.Secret == nil || v.Secret.SecretName != tc.secret {
			t.Errorf("%s %s is not from the Secret %s", strings.Join(tc.keys, "."), path, tc.secret)
			continue
		}
		if optional := v.Secret.Optional != nil && *v.Secret.Optional; optional != tc.optional {
			t.Errorf("Secret %s: optional %v, want %v", tc.secret, optional, tc.optional)
		}
		if v.Secret.DefaultMode == nil || *v.Secret.DefaultMode&0o007 != 0 {
			t.Errorf("Secret %s: its files are readable by others (defaultMode %v)", tc.secret, v.Secret.DefaultMode)
		}
		if key == "" {
			t.Errorf("Secret %s: no key", tc.secret)
		}
		if got := mounters(pod, v.Name); !slices.Equal(got, []string{frontContainer}) {
			t.Errorf("Secret %s is mounted by %v, want rypsok only", tc.secret, got)
		}
	}
	for _, c := range allContainers(pod) {
		for _, e := range c.Env {
			if e.ValueFrom != nil || strings.Contains(strings.ToUpper(e.Name), "TOKEN") || strings.Contains(strings.ToUpper(e.Name), "KEY") {
				t.Errorf("%s: environment variable %s: secrets come from files", c.Name, e.Name)
			}
		}
		if len(c.EnvFrom) > 0 {
			t.Errorf("%s: envFrom", c.Name)
		}
	}
}

// TestTheServiceReachesTheListener: the Service selects the pod and
// forwards to the container port rypsok listens on.
func TestTheServiceReachesTheListener(t *testing.T) {
	m := loadManifests(t)
	d, svc := m.deployment(t), m.service(t)
	labels := d.Spec.Template.Labels
	for k, v := range d.Spec.Selector.MatchLabels {
		if labels[k] != v {
			t.Errorf("the Deployment's selector %s=%s does not match its pod", k, v)
		}
	}
	if len(d.Spec.Selector.MatchExpressions) > 0 {
		t.Error("the Deployment's selector has expressions")
	}
	for k, v := range svc.Spec.Selector {
		if labels[k] != v {
			t.Errorf("the Service's selector %s=%s does not match the pod", k, v)
		}
	}
	if len(svc.Spec.Selector) == 0 {
		t.Error("the Service selects nothing")
	}
	fc, _ := parseConfigs(t, m)
	_, listenPort, _ := strings.Cut(fc.Service.HTTP.Listen, ":")
	front := container(t, m.pod(t), frontContainer)
	if len(svc.Spec.Ports) != 1 || len(front.Ports) != 1 {
		t.Fatalf("want one port: the Service has %d, rypsok %d", len(svc.Spec.Ports), len(front.Ports))
	}
	sp, cp := svc.Spec.Ports[0], front.Ports[0]
	if sp.TargetPort.String() != cp.Name || fmt.Sprint(cp.ContainerPort) != listenPort || fmt.Sprint(sp.Port) != listenPort {
		t.Errorf("Service port %d -> %s, container port %s=%d, [service] listen %s: want one port", sp.Port, sp.TargetPort.String(), cp.Name, cp.ContainerPort, fc.Service.HTTP.Listen)
	}
	for _, host := range []string{svc.Name, svc.Name + "." + namespace, svc.Name + "." + namespace + ".svc", svc.Name + "." + namespace + ".svc.cluster.local"} {
		if !slices.Contains(fc.Service.HTTP.AllowedHosts, host) {
			t.Errorf("[service] allowed_hosts lacks %s: callers using that name would get 403", host)
		}
	}
}

// TestTheDocumentationFollowsTheManifests: docs/deploy-kubernetes.md
// names every file to apply and the Secrets to create.
func TestTheDocumentationFollowsTheManifests(t *testing.T) {
	m := loadManifests(t)
	doc, err := os.ReadFile("../../docs/deploy-kubernetes.md")
	if err != nil {
		t.Fatal(err)
	}
	for file := range m.files {
		if !bytes.Contains(doc, []byte(file)) {
			t.Errorf("docs/deploy-kubernetes.md does not name %s", file)
		}
	}
	for _, s := range []string{"create secret generic " + tokenSecret, braveSecret, "rypsok healthcheck", "rypsok-egress healthcheck"} {
		if !bytes.Contains(doc, []byte(s)) {
			t.Errorf("docs/deploy-kubernetes.md does not say %q", s)
		}
	}
}
