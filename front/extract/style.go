package extract

import (
	"strings"

	"golang.org/x/net/html"
)

// What an element's inline style says about whether it, or its text, can
// be seen (REQ-CTX-005: content the author hid is not content). A browser
// hides an element that is not displayed, but also one it draws where no
// one can see it: fully transparent, off the page, clipped or collapsed
// to nothing, or scaled to nothing. Only the style attribute is read (and,
// on SVG elements, the presentation attributes it overrides); style
// sheets are not applied.
//
// Where the author's intent is unknown the rule leans to what the
// declaration is for: an offset (left:-9999px) counts when the style
// sets no position, since an offset on an element left static would have
// no purpose, and a size counts on any element unless the style makes it
// inline.

// Thresholds below which a drawn element cannot be seen.
const (
	// minOpacity: an element more transparent than this is not seen
	// (opacity:0, 0%, filter:opacity(0); an element that is faded in by
	// a transition is hidden as it is rendered before the transition).
	minOpacity = 0.05
	// minFontPx: text smaller than this many CSS pixels is not seen
	// (font-size:0, 0em, 0%, 0.0rem…).
	minFontPx = 1
	// farOffPx: an offset this far to the left of or above the page puts
	// an element where no scrolling reaches (left:-9999px,
	// text-indent:-9999px); pull quotes and overlapping layouts stay
	// well within it.
	farOffPx = -999
)

// style is what the inline style of one element says about its
// rendering: for each property that can hide it, the value of the last
// declaration a browser accepts, !important ones counted after the
// others. Unset fields are zero, except opacity, which is 1.
type style struct {
	// display, position, visibility and fontSize hold the declared
	// keyword or value, "" when unset.
	display, position, visibility, fontSize string
	// overflowX and overflowY are the overflow keywords, "" when unset.
	overflowX, overflowY string
	opacity              float64
	// left, top, marginLeft, marginTop and textIndent are offsets in CSS
	// pixels; 0 when unset or not a length.
	left, top, marginLeft, marginTop, textIndent float64
	// zero* report a size of zero; padding reports, top, right, bottom
	// and left, a padding that is not zero.
	zeroHeight, zeroWidth, zeroMaxHeight, zeroMaxWidth bool
	padding                                            [4]bool
	// clipEmpty, clipPathEmpty, transformFlat and scaleFlat report a
	// clip, shape or transform that leaves no area; filterClear a filter
	// that makes it transparent; contentHidden content-visibility:hidden.
	clipEmpty, clipPathEmpty, transformFlat, scaleFlat, filterClear, contentHidden bool
}

// styleOf reads the style of n: its SVG presentation attributes, then its
// style attribute (the first one: a browser ignores a repeated attribute,
// and so does the parser).
func styleOf(n *html.Node) style {
	s := style{opacity: 1}
	var decls []decl
	if n.Namespace == "svg" {
		for _, a := range n.Attr {
			if a.Namespace == "" && presentationAttr(a.Key) {
				decls = append(decls, decl{prop: a.Key, value: collapseSpace(strings.ToLower(a.Val))})
			}
		}
	}
	if v, ok := attr(n, "style"); ok {
		decls = append(decls, parseDecls(v)...)
	}
	for _, important := range []bool{false, true} {
		for _, d := range decls {
			if d.important == important {
				s.set(d.prop, d.value)
			}
		}
	}
	return s
}

// presentationAttr reports whether an SVG attribute is one of the
// presentation attributes that hide.
func presentationAttr(key string) bool {
	switch key {
	case "display", "visibility", "opacity", "font-size", "transform", "clip-path", "filter":
		return true
	}
	return false
}

// set applies one declaration; a value the property does not accept is
// ignored, as a browser ignores it.
func (s *style) set(prop, v string) {
	switch prop {
	case "display":
		if displayValue(v) {
			s.display = v
		}
	case "visibility":
		if v == "visible" || v == "hidden" || v == "collapse" || globalKeyword(v) {
			s.visibility = v
		}
	case "opacity":
		setOpacity(&s.opacity, v)
	case "font-size":
		if _, ok := fontSizePx(v, defaultFontPx, defaultFontPx); ok {
			s.fontSize = v
		}
	case "position":
		if positionValue(v) {
			s.position = v
		}
	case "left", "top", "margin-left", "margin-top", "text-indent":
		setOffset(s.offset(prop), v)
	case "inset":
		if box, ok := box4(v); ok {
			setOffset(&s.top, box[0])
			setOffset(&s.left, box[3])
		}
	case "margin":
		if box, ok := box4(v); ok {
			setOffset(&s.marginTop, box[0])
			setOffset(&s.marginLeft, box[3])
		}
	case "height", "max-height", "width", "max-width":
		setZero(s.zero(prop), v, !strings.HasSuffix(prop, "height"))
	case "overflow", "overflow-x", "overflow-y":
		s.setOverflow(prop, v)
	case "padding":
		if box, ok := box4(v); ok {
			for i, t := range box {
				s.padding[i] = !isZero(t)
			}
		}
	case "padding-top", "padding-right", "padding-bottom", "padding-left":
		if isLength(v) || isCall(v) || globalKeyword(v) {
			s.padding[sideIndex(strings.TrimPrefix(prop, "padding-"))] = !isZero(v)
		}
	default:
		s.setPaint(prop, v)
	}
}

// setPaint applies the declarations that clip, transform or fade an
// element (shape.go).
func (s *style) setPaint(prop, v string) {
	if !paintValue(v) {
		return
	}
	switch prop {
	case "clip":
		s.clipEmpty = rectEmpty(v)
	case "clip-path":
		s.clipPathEmpty = shapeEmpty(v)
	case "transform":
		s.transformFlat = transformFlat(v)
	case "filter":
		s.filterClear = filterClear(v)
	case "scale":
		s.scaleFlat = scaleFlat(v)
	case "content-visibility":
		s.contentHidden = v == "hidden"
	}
}

// paintValue reports whether v is made of keywords, numbers and
// functions, as the values setPaint reads are; a browser drops anything
// else and keeps the earlier declaration.
func paintValue(v string) bool {
	for _, t := range splitTop(v, func(c byte) bool { return c == ' ' }) {
		if _, ok := ratio(t); !ok && !identLike(t) && !isCall(t) {
			return false
		}
	}
	return true
}

// offset is the field of an offset property.
func (s *style) offset(prop string) *float64 {
	switch prop {
	case "left":
		return &s.left
	case "top":
		return &s.top
	case "margin-left":
		return &s.marginLeft
	case "margin-top":
		return &s.marginTop
	}
	return &s.textIndent
}

// zero is the field of a size property.
func (s *style) zero(prop string) *bool {
	switch prop {
	case "height":
		return &s.zeroHeight
	case "max-height":
		return &s.zeroMaxHeight
	case "width":
		return &s.zeroWidth
	}
	return &s.zeroMaxWidth
}

// sideIndex is the index of a side in top, right, bottom, left order.
func sideIndex(side string) int {
	return strings.Index("trbl", side[:1])
}

// box4 expands a one- to four-value shorthand to top, right, bottom,
// left.
func box4(v string) ([4]string, bool) {
	t := fields(v)
	switch len(t) {
	case 1:
		return [4]string{t[0], t[0], t[0], t[0]}, true
	case 2:
		return [4]string{t[0], t[1], t[0], t[1]}, true
	case 3:
		return [4]string{t[0], t[1], t[2], t[1]}, true
	case 4:
		return [4]string{t[0], t[1], t[2], t[3]}, true
	}
	return [4]string{}, false
}

// displayValue reports whether v is a display a browser accepts.
func displayValue(v string) bool {
	if globalKeyword(v) || isCall(v) {
		return true
	}
	switch v {
	case "none", "contents", "inline-block", "inline-flex", "inline-grid", "inline-table",
		"table-row-group", "table-header-group", "table-footer-group", "table-row", "table-cell",
		"table-column-group", "table-column", "table-caption", "ruby-base", "ruby-text",
		"ruby-base-container", "ruby-text-container", "inline-list-item",
		"-webkit-box", "-webkit-inline-box", "-ms-flexbox", "-ms-inline-flexbox", "-ms-grid", "-moz-box":
		return true
	}
	// one to three keywords of the multi-keyword syntax ("block flow")
	for _, k := range strings.Split(v, " ") {
		switch k {
		case "block", "inline", "run-in", "flow", "flow-root", "table", "flex", "grid", "ruby", "list-item", "math":
		default:
			return false
		}
	}
	return true
}

// positionValue reports whether v is a position a browser accepts.
func positionValue(v string) bool {
	switch v {
	case "static", "relative", "absolute", "fixed", "sticky":
		return true
	}
	return globalKeyword(v)
}

// setOpacity sets an opacity (clamped to 0–1 as a browser does, so a
// negative one is 0); a function counts as opaque.
func setOpacity(p *float64, v string) {
	if r, ok := ratio(v); ok {
		*p = min(max(r, 0), 1)
	} else if isCall(v) || globalKeyword(v) {
		*p = 1
	}
}

// setOffset sets an offset in pixels; a percentage, auto or a function
// set it to 0 (not far off).
func setOffset(p *float64, v string) {
	if px, ok := lengthPx(v); ok {
		*p = px
	} else if v == "auto" || isLength(v) || isCall(v) || globalKeyword(v) {
		*p = 0
	}
}

// setZero sets whether a size is zero; a percentage counts only where
// pct is true (a percentage height is auto in a parent of auto height).
func setZero(p *bool, v string, pct bool) {
	switch {
	case isZero(v):
		*p = pct || !strings.HasSuffix(v, "%")
	case isLength(v) || isCall(v) || globalKeyword(v):
		*p = false
	default:
		switch v {
		case "auto", "none", "min-content", "max-content", "fit-content", "stretch",
			"-webkit-fill-available", "-moz-available":
			*p = false
		}
	}
}

// setOverflow sets overflow-x, overflow-y, or both from the shorthand
// (one value, or x then y).
func (s *style) setOverflow(prop, v string) {
	t := strings.Split(v, " ")
	for _, k := range t {
		switch k {
		case "visible", "hidden", "clip", "scroll", "auto", "overlay":
		default:
			if !globalKeyword(k) {
				return
			}
		}
	}
	switch {
	case prop == "overflow-x" && len(t) == 1:
		s.overflowX = v
	case prop == "overflow-y" && len(t) == 1:
		s.overflowY = v
	case prop == "overflow" && len(t) <= 2:
		s.overflowX, s.overflowY = t[0], t[len(t)-1]
	}
}

// fontSizePx is the font size v gives, in CSS pixels, inside a parent
// whose font size is parent in a document whose root font size is rem;
// ok is false for a value a browser rejects. A function counts as the
// default size.
func fontSizePx(v string, parent, rem float64) (float64, bool) {
	switch v {
	case "xx-small":
		return 9, true
	case "x-small":
		return 10, true
	case "small":
		return 13, true
	case "medium", "initial":
		return defaultFontPx, true
	case "large":
		return 18, true
	case "x-large":
		return 24, true
	case "xx-large":
		return 32, true
	case "xxx-large":
		return 48, true
	case "larger":
		return parent * 1.2, true
	case "smaller":
		return parent / 1.2, true
	case "inherit", "unset", "revert", "revert-layer", "math":
		return parent, true
	}
	n, unit, ok := dim(v)
	switch {
	case !ok:
		return defaultFontPx, isCall(v)
	case n < 0:
		return 0, false
	case unit == "%":
		return n / 100 * parent, true
	case unit == "em" || unit == "cap" || unit == "ic" || unit == "lh":
		return n * parent, true
	case unit == "ex" || unit == "ch":
		return n * parent / 2, true
	case unit == "rem" || unit == "rlh":
		return n * rem, true
	}
	return lengthPx(v)
}

// gone reports whether the style hides the element and everything in it.
func (s *style) gone() bool {
	switch s.display {
	case "none":
		return true
	case "contents":
		// no box of its own: only what its children inherit applies
		return false
	}
	// sizes, transforms, vertical margins and text-indent do not apply
	// to an inline box
	boxed := s.display != "inline" && s.display != "inline flow" || s.position == "absolute" || s.position == "fixed"
	return s.contentHidden || s.opacity < minOpacity || s.filterClear || s.clipPathEmpty ||
		s.clipEmpty && s.clipApplies() || s.offscreen(boxed) ||
		boxed && (s.transformFlat || s.scaleFlat || s.collapsed() || s.textIndent <= farOffPx)
}

// offscreen reports whether offsets put the element far to the left of
// or above the page. left and top move an element that is not static
// (or sticky, where they are thresholds).
func (s *style) offscreen(boxed bool) bool {
	moved := false
	switch s.position {
	case "static", "sticky", "initial", "unset", "revert", "revert-layer":
	default:
		moved = s.left <= farOffPx || s.top <= farOffPx
	}
	return moved || s.marginLeft <= farOffPx || boxed && s.marginTop <= farOffPx
}

// clipApplies reports whether clip applies: to absolutely positioned
// elements, or when the style sets no position.
func (s *style) clipApplies() bool {
	return s.position == "" || s.position == "absolute" || s.position == "fixed" || s.position == "inherit"
}

// collapsed reports whether a size of zero, with no padding across it,
// clips the element's content to nothing (height:0;overflow:hidden). A
// zero height with padding is the frame of a responsive video, and
// shows it.
func (s *style) collapsed() bool {
	y := (s.zeroHeight || s.zeroMaxHeight) && !s.padding[0] && !s.padding[2] && clips(s.overflowY, s.overflowX)
	x := (s.zeroWidth || s.zeroMaxWidth) && !s.padding[1] && !s.padding[3] && clips(s.overflowX, s.overflowY)
	return x || y
}

// clips reports whether overflow in one direction is cut, given its own
// keyword and the other direction's: visible beside a scrolling or hidden
// direction computes to auto, which cuts.
func clips(own, other string) bool {
	switch own {
	case "hidden", "clip", "auto", "scroll", "overlay":
		return true
	case "", "visible":
		return other == "hidden" || other == "auto" || other == "scroll" || other == "overlay"
	}
	return false
}
