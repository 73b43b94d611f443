//go:build !race

package extract

const raceSlowdown = 1
