//go:build race

package extract

// raceSlowdown scales time limits under the race detector, which makes
// parsing five to ten times slower.
const raceSlowdown = 5
