package pdf

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// pageBreak is the visible separator between two pages in the Markdown: a
// thematic break, which no paragraph of the text makes.
const pageBreak = "\n\n---\n\n"

// render writes the pages' lines as Markdown: the running headers and
// footers dropped, lines joined into paragraphs (a hyphen at a line's end
// joined), lines in a font larger than the body's made headings, and a
// short bold line standing alone a heading below those; pages with text
// separated by pageBreak.
func render(pages [][]line) (markdown, firstHeading string) {
	dropRunning(pages)
	body := bodySize(pages)
	levels := headingSizes(pages, body)
	var out strings.Builder
	boldLevel := min(len(levels)+1, 3)
	for _, ls := range pages {
		if len(ls) > 0 && out.Len() > 0 {
			out.WriteString(pageBreak)
		}
		gap := lineGap(ls)
		var para strings.Builder
		var paraLevel, paraLines int
		var paraBold bool
		flush := func() {
			t := strings.TrimSpace(para.String())
			para.Reset()
			if t == "" {
				return
			}
			if out.Len() > 0 && !strings.HasSuffix(out.String(), "\n\n") {
				out.WriteString("\n\n")
			}
			level := paraLevel
			if level == 0 && paraLines == 1 && paraBold && boldHeading(t) {
				level = boldLevel
			}
			if level > 0 {
				out.WriteString(strings.Repeat("#", level) + " ")
				if firstHeading == "" {
					firstHeading = t
				}
			}
			out.WriteString(t)
		}
		for i, l := range ls {
			level := levelOf(l, levels)
			if i == 0 || level != paraLevel || breaks(ls[i-1], l, gap, level > 0) {
				flush()
				paraLevel, paraLines, paraBold = level, 1, l.bold
				para.WriteString(l.text)
				continue
			}
			paraLines++
			join(&para, l.text)
		}
		flush()
	}
	return strings.TrimSpace(out.String()), firstHeading
}

// boldHeading reports a bold line that reads as a heading: short, with a
// letter, not ending as a sentence or a clause does.
func boldHeading(t string) bool {
	last, _ := utf8.DecodeLastRuneInString(t)
	return utf8.RuneCountInString(t) <= maxRunningChars && hasLetter(t) && !strings.ContainsRune(".,;:!?", last)
}

// join appends a line to a paragraph: a word hyphenated at the line's end
// is joined ("infor-" + "mation"), a soft hyphen dropped, else a space.
func join(p *strings.Builder, next string) {
	s := p.String()
	last, _ := utf8.DecodeLastRuneInString(s)
	first, _ := utf8.DecodeRuneInString(next)
	switch {
	case last == '\u00ad':
		t := strings.TrimSuffix(s, "\u00ad")
		p.Reset()
		p.WriteString(t)
	case last == '-' && unicode.IsLower(first) && len(s) > 1 && unicode.IsLetter(prevRune(s)):
		t := strings.TrimSuffix(s, "-")
		p.Reset()
		p.WriteString(t)
	default:
		p.WriteByte(' ')
	}
	p.WriteString(next)
}

// prevRune is the rune before s's last.
func prevRune(s string) rune {
	_, n := utf8.DecodeLastRuneInString(s)
	r, _ := utf8.DecodeLastRuneInString(s[:len(s)-n])
	return r
}

// breaks reports a paragraph break between two lines: a line gap
// clearly wider than the page's usual one, a move up or sideways (a new
// column), a heading, or an indented first line after a short line.
func breaks(prev, l line, gap float64, heading bool) bool {
	dy := prev.y - l.y
	switch {
	case heading:
		return math.Abs(prev.size-l.size) > 0.5 || dy > 2.2*l.size
	case dy <= 0 || dy > 3*l.size:
		return true
	case gap > 0 && dy > 1.35*gap, dy > 1.8*l.size:
		return true
	case l.x0 > prev.x0+0.8*l.size && l.x0 < prev.x0+8*l.size && prev.x1 < l.x1:
		return true // an indented first line
	}
	return false
}

// lineGap is the page's most common distance between two lines.
func lineGap(ls []line) float64 {
	counts := map[int]int{}
	for i := 1; i < len(ls); i++ {
		if d := ls[i-1].y - ls[i].y; d > 0 && d < 4*ls[i].size {
			counts[int(math.Round(d))]++
		}
	}
	best, n := 0, 0
	for d, c := range counts {
		if c > n || c == n && d < best {
			best, n = d, c
		}
	}
	return float64(best)
}

// bodySize is the font size of most of the text.
func bodySize(pages [][]line) float64 {
	counts := map[int]int{}
	for _, ls := range pages {
		for _, l := range ls {
			counts[int(math.Round(l.size*2))] += len(l.text)
		}
	}
	best, n := 0, 0
	for s, c := range counts {
		if c > n {
			best, n = s, c
		}
	}
	return float64(best) / 2
}

// headingSizes returns the sizes at least a fifth larger than the body's,
// largest first, at most three: the heading levels.
func headingSizes(pages [][]line, body float64) []float64 {
	var sizes []float64
	for _, ls := range pages {
		for _, l := range ls {
			s := math.Round(l.size*2) / 2
			if s >= 1.2*body && len(l.text) < 200 && !slices.Contains(sizes, s) {
				sizes = append(sizes, s)
			}
		}
	}
	slices.SortFunc(sizes, func(a, b float64) int { return cmp.Compare(b, a) })
	return sizes[:min(len(sizes), 3)]
}

// levelOf is a line's heading level (1 to 3), or 0 for body text.
func levelOf(l line, levels []float64) int {
	s := math.Round(l.size*2) / 2
	for i, h := range levels {
		if s == h && len(l.text) < 200 && hasLetter(l.text) {
			return i + 1
		}
	}
	return 0
}

func hasLetter(s string) bool {
	return strings.IndexFunc(s, unicode.IsLetter) >= 0
}

// dropRunning removes running headers and footers: a line of at most
// maxRunningChars among the first or last two of its page whose text
// (digits aside) and place (to the point) are the same on at least half
// the pages, and a bare page number there. Documents of fewer than three pages keep theirs.
func dropRunning(pages [][]line) {
	if len(pages) < 3 {
		return
	}
	edge := func(ls []line, i int) bool {
		return (i < 2 || i >= len(ls)-2) && utf8.RuneCountInString(ls[i].text) <= maxRunningChars
	}
	counts := map[string]int{}
	for _, ls := range pages {
		seen := map[string]bool{}
		for i, l := range ls {
			if k := runningKey(l); edge(ls, i) && !seen[k] {
				seen[k] = true
				counts[k]++
			}
		}
	}
	least := max(3, (len(pages)+1)/2)
	for pi, ls := range pages {
		kept := ls[:0:0]
		for i, l := range ls {
			if edge(ls, i) && (counts[runningKey(l)] >= least || pageNumber(l.text)) {
				continue
			}
			kept = append(kept, l)
		}
		pages[pi] = kept
	}
}

// maxRunningChars bounds a running header or footer: a title, a
// journal's name and volume, a chapter; a longer line is text.
const maxRunningChars = 80

// runningKey is a line's height on the page, to the point, and its text
// with its digits taken out.
func runningKey(l line) string {
	return strconv.Itoa(int(math.Round(l.y))) + " " + strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) {
			return -1
		}
		return r
	}, l.text)
}

// pageNumber reports a line that is only a page number ("7", "- 7 -",
// "Page 7", "7 of 12", "vii").
func pageNumber(s string) bool {
	t := strings.ToLower(strings.Trim(s, " -–—|·."))
	t = strings.TrimPrefix(t, "page ")
	t = strings.TrimPrefix(t, "p. ")
	if a, b, ok := strings.Cut(t, " of "); ok {
		return digits(a) && digits(b)
	}
	if a, b, ok := strings.Cut(t, "/"); ok {
		return digits(strings.TrimSpace(a)) && digits(strings.TrimSpace(b))
	}
	if t != "" && len(t) <= 6 && strings.Trim(t, "ivxlc") == "" {
		return true
	}
	return digits(t)
}

func digits(s string) bool {
	return s != "" && len(s) <= 5 && strings.Trim(s, "0123456789") == ""
}
