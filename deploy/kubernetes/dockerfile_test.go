package deploykubernetes

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// stage is one FROM ... AS name stage of the Dockerfile.
type stage struct {
	from, name string
	lines      []string // its instructions, continuation lines joined
}

func dockerfileStages(t *testing.T) []stage {
	t.Helper()
	data, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.ReplaceAll(string(data), "\\\n", " ")
	var stages []stage
	from := regexp.MustCompile(`^FROM\s+(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$`)
	for _, l := range strings.Split(joined, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if m := from.FindStringSubmatch(l); m != nil {
			stages = append(stages, stage{from: m[1], name: m[2]})
			continue
		}
		if len(stages) > 0 {
			stages[len(stages)-1].lines = append(stages[len(stages)-1].lines, l)
		}
	}
	return stages
}

func (s stage) instruction(name string) []string {
	var out []string
	for _, l := range s.lines {
		if v, ok := strings.CutPrefix(l, name+" "); ok {
			out = append(out, strings.TrimSpace(v))
		}
	}
	return out
}

// TestTheImagesMatchThePod: static, trimmed, version-stamped binaries on
// distroless static, one image per binary, each running as the user the
// pod gives its container, the binary where the pod runs it.
func TestTheImagesMatchThePod(t *testing.T) {
	stages := dockerfileStages(t)
	byName := map[string]stage{}
	for _, s := range stages {
		byName[s.name] = s
	}
	build := strings.Join(byName["build"].instruction("RUN"), "\n")
	for _, want := range []string{"CGO_ENABLED=0", "-trimpath", "-X github.com/rypsok/rypsok/shared/version.stamp=${VERSION}", "./cmd/rypsok ", "./cmd/rypsok-egress"} {
		if !strings.Contains(build, want) {
			t.Errorf("the build stage does not run %q", want)
		}
	}
	if last := stages[len(stages)-1].name; last != "rypsok" {
		t.Errorf("the default (last) stage is %q, want rypsok", last)
	}
	m := loadManifests(t)
	pod := m.pod(t)
	for image, cname := range map[string]string{"rypsok": frontContainer, "rypsok-egress": egressContainer} {
		s, ok := byName[image]
		if !ok {
			t.Errorf("no stage %s", image)
			continue
		}
		if !strings.HasPrefix(s.from, "gcr.io/distroless/static") && s.from != "scratch" {
			t.Errorf("stage %s is FROM %s, not distroless static or scratch", image, s.from)
		}
		c := container(t, pod, cname)
		sc := c.SecurityContext
		users := s.instruction("USER")
		want := fmt.Sprintf("%d:%d", *sc.RunAsUser, *sc.RunAsGroup)
		if len(users) != 1 || users[0] != want {
			t.Errorf("stage %s: USER %v, want %s as its container runs", image, users, want)
		}
		entry := s.instruction("ENTRYPOINT")
		if len(entry) != 1 || entry[0] != fmt.Sprintf("[%q]", c.Command[0]) {
			t.Errorf("stage %s: ENTRYPOINT %v, want [%q] as its container runs", image, entry, c.Command[0])
		}
		if !strings.Contains(c.Image, "/"+image+":") {
			t.Errorf("container %s runs image %s, not %s", cname, c.Image, image)
		}
	}
}
