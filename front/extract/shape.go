package extract

import "strings"

// Geometry of the paint properties style.go reads: whether a clip, a
// clip-path shape, a transform, a scale or a filter leaves an element no
// visible area. Each reads a value parseDecls has lower-cased and
// collapsed; a function it does not know leaves the element visible.

// calls returns the top-level functions of v, in order.
func calls(v string) (names, args []string) {
	for _, t := range splitTop(v, func(c byte) bool { return c == ' ' }) {
		if name, a, ok := call(t); ok {
			names = append(names, name)
			args = append(args, a)
		}
	}
	return names, args
}

// rectEmpty reports whether a clip rect(top, right, bottom, left) has no
// area: its bottom edge at or above its top, or its right edge at or left
// of its left (rect(0,0,0,0), the rect(1px,1px,1px,1px) of visually
// hidden text). auto is an edge of the element's box.
func rectEmpty(v string) bool {
	name, args, ok := call(v)
	if !ok || name != "rect" {
		return false
	}
	e := fields(args)
	if len(e) != 4 {
		return false
	}
	return edgesMeet(e[0], e[2]) || edgesMeet(e[3], e[1])
}

// edgesMeet reports whether the far edge lies at or before the near one,
// both lengths (or both percentages).
func edgesMeet(near, far string) bool {
	n, nu, ok1 := dim(near)
	f, fu, ok2 := dim(far)
	if !ok1 || !ok2 || !isLength(near) || !isLength(far) {
		return false
	}
	if nu == "%" || fu == "%" {
		return nu == fu && f <= n
	}
	np, _ := lengthPx(near)
	fp, _ := lengthPx(far)
	return fp <= np
}

// shapeEmpty reports whether a clip-path shape has no area: an inset()
// whose opposite insets add up to 100% or more, a circle() or ellipse()
// with a zero radius, a polygon() whose points lie on one vertical or
// horizontal line, an xywh() of zero width or height.
func shapeEmpty(v string) bool {
	names, args := calls(v)
	for i, name := range names {
		a := fields(args[i])
		if at := indexOf(a, "at"); at >= 0 {
			a = a[:at] // the center does not change the area
		}
		switch name {
		case "inset":
			if r := indexOf(a, "round"); r >= 0 {
				a = a[:r]
			}
			if box, ok := box4(strings.Join(a, " ")); ok {
				return percentSum(box[0], box[2]) >= 100 || percentSum(box[1], box[3]) >= 100
			}
		case "circle", "ellipse":
			for _, r := range a {
				if isZero(r) {
					return true
				}
			}
		case "polygon":
			return polygonFlat(args[i])
		case "xywh":
			return len(a) >= 4 && (isZero(a[2]) || isZero(a[3]))
		case "rect":
			return len(a) >= 4 && (edgesMeet(a[0], a[2]) || edgesMeet(a[3], a[1]))
		}
	}
	return false
}

// indexOf is the index of s in a, -1 when absent.
func indexOf(a []string, s string) int {
	for i, x := range a {
		if x == s {
			return i
		}
	}
	return -1
}

// percentSum adds two insets given as percentages; a length counts as 0
// unless negative, which makes the sum unknown (0).
func percentSum(a, b string) float64 {
	sum := 0.0
	for _, t := range []string{a, b} {
		n, unit, ok := dim(t)
		switch {
		case !ok || n < 0:
			return 0
		case unit == "%":
			sum += n
		}
	}
	return sum
}

// polygonFlat reports whether a polygon()'s points all share one x or
// one y, or are fewer than three: a shape without area.
func polygonFlat(args string) bool {
	pts := splitTop(args, func(c byte) bool { return c == ',' })
	if len(pts) > 0 && (strings.Contains(pts[0], "nonzero") || strings.Contains(pts[0], "evenodd")) {
		pts = pts[1:]
	}
	if len(pts) < 3 {
		return true
	}
	sameX, sameY := true, true
	var x0, y0 string
	for i, p := range pts {
		xy := fields(p)
		if len(xy) != 2 {
			return false
		}
		if i == 0 {
			x0, y0 = xy[0], xy[1]
		}
		sameX = sameX && sameLength(xy[0], x0)
		sameY = sameY && sameLength(xy[1], y0)
	}
	return sameX || sameY
}

// sameLength reports whether two lengths are equal (0 and 0px are).
func sameLength(a, b string) bool {
	if a == b {
		return true
	}
	if isZero(a) && isZero(b) {
		return true
	}
	pa, ok1 := lengthPx(a)
	pb, ok2 := lengthPx(b)
	return ok1 && ok2 && pa == pb
}

// transformFlat reports whether a transform list scales an element to
// nothing in x or y: scale(0), scaleX(0), scaleY(0), scale3d with a zero
// x or y, or a matrix whose 2-D part is singular. The factors multiply,
// so one flat function flattens the whole list.
func transformFlat(v string) bool {
	names, args := calls(v)
	for i, name := range names {
		a := ratios(args[i])
		switch {
		case name == "scale" || name == "scale3d":
			if scaleFlat(args[i]) {
				return true
			}
		case name == "scalex" || name == "scaley":
			if len(a) == 1 && a[0] == 0 {
				return true
			}
		case name == "matrix" && len(a) == 6:
			if a[0]*a[3]-a[1]*a[2] == 0 {
				return true
			}
		case name == "matrix3d" && len(a) == 16:
			if a[0]*a[5]-a[1]*a[4] == 0 {
				return true
			}
		}
	}
	return false
}

// scaleFlat reports whether a scale (x, then y, which defaults to x, then
// z), as the scale property or the arguments of scale() or scale3d(), is
// zero in x or y.
func scaleFlat(v string) bool {
	a := ratios(v)
	return len(a) >= 1 && (a[0] == 0 || len(a) >= 2 && a[1] == 0)
}

// filterClear reports whether a filter's opacity() functions together
// leave the element more transparent than minOpacity.
func filterClear(v string) bool {
	names, args := calls(v)
	alpha := 1.0
	for i, name := range names {
		if a := ratios(args[i]); name == "opacity" && len(a) == 1 {
			alpha *= min(max(a[0], 0), 1)
		}
	}
	return alpha < minOpacity
}

// ratios parses a list of numbers and percentages; nil when one is not.
func ratios(v string) []float64 {
	var out []float64
	for _, t := range fields(v) {
		r, ok := ratio(t)
		if !ok {
			return nil
		}
		out = append(out, r)
	}
	return out
}
