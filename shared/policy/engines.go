package policy

import "sort"

// EngineIDs returns the ids of the configured engines, sorted.
func (p *Policy) EngineIDs() []string {
	ids := make([]string, 0, len(p.engines))
	for id := range p.engines {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}
