//! Page plans: which page holds what (front matter, how-to pages, puzzle pages, answer
//! pages), and where each box goes, before anything is drawn.

use super::*;

/// Plan every page for one page geometry.
pub(crate) fn plan(
    ty: &Type,
    template: &Template,
    chapters: &[Chapter],
    howtos: &[HowTo],
    g: &Geometry,
    with_answers: bool,
) -> Result<Plan> {
    let live = g.live(1);
    let body_h = live.h - FOOTER_MM;
    let mut kinds = vec![Kind::Title, Kind::Copyright];

    // Contents: how-to pages, sections, answers.
    let entries = howtos.len() + chapters.len() + usize::from(with_answers);
    let contents_line = leading(ty.body) * 1.5;
    let per_contents =
        (((body_h - line_h(ty.heading) - 8.0) / contents_line).floor() as usize).max(1);
    for first in (0..entries).step_by(per_contents) {
        kinds.push(Kind::Contents {
            first,
            n: per_contents.min(entries - first),
        });
    }
    let mut howto_pages = Vec::new();
    for h in 0..howtos.len() {
        howto_pages.push(kinds.len() + 1);
        kinds.push(Kind::HowTo(h));
    }

    let SectionPages {
        sections,
        section_pages,
        puzzle_page,
        fill_notes,
    } = plan_sections(ty, chapters, live, body_h, &mut kinds);

    // The answer key: sections run on, answers in rows.
    let answers_page = kinds.len() + 1;
    let key = if with_answers {
        plan_answers(ty, template, chapters, live, body_h, &mut kinds)?
    } else {
        AnswerKey::none(chapters)
    };

    let content_pages = kinds.len();
    let target = content_pages.max(crate::MIN_PAGES).next_multiple_of(2);
    while kinds.len() < target {
        kinds.push(Kind::Notes);
    }

    let mut contents: Vec<(String, usize)> = howtos
        .iter()
        .zip(&howto_pages)
        .map(|(h, &page)| (format!("How to play {}", h.title), page))
        .collect();
    contents.extend(
        chapters
            .iter()
            .zip(&section_pages)
            .map(|(p, &page)| (p.heading.clone(), page)),
    );
    if with_answers {
        contents.push(("Answers".into(), answers_page));
    }
    Ok(Plan {
        kinds,
        content_pages,
        contents,
        howto_pages,
        section_pages,
        puzzle_page,
        answer_page: key.page,
        sections,
        answer_cols: key.cols,
        answer_max_h: key.max_h,
        answer_scale: key.scale,
        answers_page,
        fill_notes,
    })
}

/// The sections' pages, as planned.
pub(super) struct SectionPages {
    pub(super) sections: Vec<SectionLayout>,
    /// [section]: its first page.
    pub(super) section_pages: Vec<usize>,
    /// [section][k]: the page of its k-th puzzle.
    pub(super) puzzle_page: Vec<Vec<usize>>,
    /// Sections whose full pages would use less than [`MIN_FILL`] of the height.
    pub(super) fill_notes: Vec<String>,
}

/// Plan every section's puzzle pages onto `kinds`: the same box on every page, as many
/// rows as fit under the first page's heading (drawn a little smaller rather than
/// dropping a row), and a note for a section whose full pages would be thin.
pub(super) fn plan_sections(
    ty: &Type,
    chapters: &[Chapter],
    live: Rect,
    body_h: f32,
    kinds: &mut Vec<Kind>,
) -> SectionPages {
    let mut sections = Vec::new();
    let mut section_pages = Vec::new();
    let mut puzzle_page = Vec::new();
    let mut fill_notes = Vec::new();
    for (p, chapter) in chapters.iter().enumerate() {
        let header = section_header_h(ty, chapter, live.w).max(HEADER_MM);
        let tiling = Tiling {
            grid: Rect::new(0.0, 0.0, live.w, body_h - HEADER_MM),
            extra: label_h(ty) + caption_h(ty) + 2.0 * PAD_MM,
            aspect: chapter.items.aspect(),
        };
        let per_page = if ty.large {
            tiling.large_print_per_page(ty, chapter)
        } else {
            chapter.per_page
        };
        let layout = tiling.layout(per_page);
        fill_notes.extend(tiling.fill_note(chapter, per_page, live.h));
        let (first_rows, first_box_h) = tiling.first_page(ty, chapter, body_h - header, &layout);
        let first_slots = (first_rows * layout.cols).min(per_page);
        sections.push(SectionLayout {
            header,
            cols: layout.cols,
            box_w: layout.box_w,
            box_h: layout.box_h,
            first_box_h,
            per_page,
        });
        section_pages.push(kinds.len() + 1);
        puzzle_page.push(place_puzzles(
            kinds,
            p,
            chapter.items.len(),
            first_slots,
            per_page,
        ));
    }
    SectionPages {
        sections,
        section_pages,
        puzzle_page,
        fill_notes,
    }
}

/// How a section's puzzles tile the page under its header: the grid they fill, the
/// height a box needs besides its drawing, and the drawings' aspect.
pub(super) struct Tiling {
    pub(super) grid: Rect,
    pub(super) extra: f32,
    pub(super) aspect: f32,
}

/// A section's boxes at some number of puzzles a page.
pub(super) struct BoxLayout {
    pub(super) rows: usize,
    pub(super) cols: usize,
    pub(super) box_w: f32,
    /// The drawing's width in its box.
    pub(super) draw_w: f32,
    pub(super) box_h: f32,
}

impl Tiling {
    /// The boxes for `per_page` puzzles a page.
    pub(super) fn layout(&self, per_page: usize) -> BoxLayout {
        let (grid, aspect, extra) = (self.grid, self.aspect, self.extra);
        let (rows, cols) = best_grid(per_page, grid, aspect, extra);
        // Each box as tall as its drawing needs (a wide drawing in one row does
        // not need the whole page), so the first page fits what it can at the
        // same size.
        let box_w = grid.w / cols as f32;
        let draw_w = (box_w - 2.0 * PAD_MM)
            .min((grid.h / rows as f32 - extra) * aspect)
            .max(1.0);
        let box_h = (draw_w / aspect + extra).min(grid.h / rows as f32);
        BoxLayout {
            rows,
            cols,
            box_w,
            draw_w,
            box_h,
        }
    }

    /// Whether every puzzle of `chapter` drawn `draw_w` wide keeps its text at the
    /// book's smallest drawing size.
    pub(super) fn legible(&self, ty: &Type, chapter: &Chapter, draw_w: f32) -> bool {
        let area = Rect::new(0.0, 0.0, draw_w, draw_w / self.aspect);
        (0..chapter.items.len()).all(|i| {
            let mut c = Canvas::new();
            chapter.items.draw(i, &mut c, area);
            c.min_text_pt().is_none_or(|s| s >= ty.min_drawing - 1e-3)
        })
    }

    /// Large print: fewer a page than the section asks until every drawing's text
    /// reaches the large-print size (at least one).
    pub(super) fn large_print_per_page(&self, ty: &Type, chapter: &Chapter) -> usize {
        let mut per_page = chapter.per_page;
        while per_page > 1 {
            if self.legible(ty, chapter, self.layout(per_page).draw_w) {
                break;
            }
            per_page -= 1;
        }
        per_page
    }

    /// How much of the live height (`live_h`) a full page of `n` puzzles uses.
    pub(super) fn fill(&self, n: usize, live_h: f32) -> f32 {
        let l = self.layout(n);
        (HEADER_MM + l.rows as f32 * l.box_h) / live_h
    }

    /// A full page of the section (one that is not its last) should use at least
    /// MIN_FILL of the live height; when it would not, a note naming the per_page that
    /// does.
    pub(super) fn fill_note(
        &self,
        chapter: &Chapter,
        per_page: usize,
        live_h: f32,
    ) -> Option<String> {
        let fill = self.fill(per_page, live_h);
        let thin = chapter.items.len() > per_page && fill < MIN_FILL;
        if !thin {
            return None;
        }
        let better = (per_page + 1..=crate::template::MAX_PER_PAGE)
            .find(|&n| self.fill(n, live_h) >= MIN_FILL);
        Some(format!(
            "section {} ({}): a full page of its puzzles uses {:.0}% of the page's height{}",
            chapter.number,
            chapter.heading,
            100.0 * fill,
            match better {
                Some(n) => format!(
                    "; per_page = {n} fills {:.0}%",
                    100.0 * self.fill(n, live_h)
                ),
                None => String::new(),
            }
        ))
    }

    /// The rows on the section's first page, `room` mm under its header, and their
    /// box height: as many as fit, or every row of a full page drawn a little smaller
    /// when the drawings stay legible (a first page that drops a row looks half empty).
    pub(super) fn first_page(
        &self,
        ty: &Type,
        chapter: &Chapter,
        room: f32,
        l: &BoxLayout,
    ) -> (usize, f32) {
        // Rows under the first page's header; a whisker of rounding is not a row lost.
        let first_rows = ((room / l.box_h) + 1e-3).floor().max(0.0) as usize;
        let needed = l.rows.min(chapter.items.len().div_ceil(l.cols));
        if first_rows < needed {
            let h = room / needed as f32;
            let scale = (h - self.extra) / (l.box_h - self.extra);
            let small_w = l.draw_w * scale;
            if scale >= FIRST_PAGE_MIN_SCALE && self.legible(ty, chapter, small_w) {
                return (needed, h);
            }
        }
        (first_rows, l.box_h)
    }
}

/// Add the pages of chapter `p`'s `count` puzzles to `kinds`: `first_slots` on its
/// opening page (which opens even with none), `per_page` on each after. Each
/// puzzle's page.
pub(super) fn place_puzzles(
    kinds: &mut Vec<Kind>,
    p: usize,
    count: usize,
    first_slots: usize,
    per_page: usize,
) -> Vec<usize> {
    let mut pages = Vec::new();
    let mut first = 0;
    let mut opens = true;
    while opens || first < count {
        let slots = if opens { first_slots } else { per_page };
        let n = slots.min(count - first);
        pages.extend(std::iter::repeat_n(kinds.len() + 1, n));
        kinds.push(Kind::Puzzles {
            chapter: p,
            first,
            n,
            opens,
        });
        first += n;
        opens = false;
    }
    pages
}

/// The answer key as planned: for each section, each answer's page, the columns and
/// tallest drawing of a section laid out in columns, and the one scale of a section
/// drawn at one scale.
pub(super) struct AnswerKey {
    pub(super) page: Vec<Vec<usize>>,
    pub(super) cols: Vec<usize>,
    pub(super) max_h: Vec<f32>,
    pub(super) scale: Vec<Option<f32>>,
}

impl AnswerKey {
    /// No answer key.
    pub(super) fn none(chapters: &[Chapter]) -> AnswerKey {
        AnswerKey {
            page: chapters.iter().map(|p| vec![0; p.items.len()]).collect(),
            cols: vec![0; chapters.len()],
            max_h: vec![0.0; chapters.len()],
            scale: vec![None; chapters.len()],
        }
    }
}

/// Plan the answer key's pages onto `kinds`: sections run on one after another, their
/// answers in rows (in columns, or packed by width at one scale).
pub(super) fn plan_answers(
    ty: &Type,
    template: &Template,
    chapters: &[Chapter],
    live: Rect,
    body_h: f32,
    kinds: &mut Vec<Kind>,
) -> Result<AnswerKey> {
    let mut key = AnswerKey::none(chapters);
    let avail = body_h - HEADER_MM;
    let mut blocks = vec![Block::Title];
    let mut used = line_h(ty.heading) + 5.0;
    let flush = |blocks: &mut Vec<Block>, kinds: &mut Vec<Kind>| {
        kinds.push(Kind::Answers(std::mem::take(blocks)));
    };
    for (p, chapter) in chapters.iter().enumerate() {
        if !chapter.items.has_answers() {
            continue;
        }
        let section_h = answer_section_h(ty, chapter, live.w);
        let text_room = text_block_h(ANSWER_LINES, ty.answer) + 1.0;
        let max_draw_h = avail - section_h - answer_label_h(ty) - text_room - 2.0 * PAD_MM;
        let scaled = template.answers.columns.is_none()
            && (0..chapter.items.len()).all(|i| chapter.items.answer_units(i).is_some());
        // The section's rows of answers: (first, how many, height).
        let rows: Vec<(usize, usize, f32)> = if scaled {
            // One scale for the section, answers packed into rows by their width.
            let s = answer_scale(ty, chapter, live.w, avail - section_h)?;
            key.scale[p] = Some(s);
            scaled_rows(ty, chapter, s, live.w)
        } else {
            let (cols, max_h) = match template.answers.columns {
                Some(c) => (c, max_draw_h),
                None => densest_columns(ty, chapter, live.w, avail - section_h, max_draw_h),
            };
            key.cols[p] = cols;
            key.max_h[p] = max_h;
            column_rows(
                ty,
                chapter,
                cols,
                live.w / cols as f32 - 2.0 * PAD_MM,
                max_h,
            )
        };
        let mut first_row = true;
        for (first, n, height) in rows {
            let need = height + if first_row { section_h } else { 0.0 };
            if used + need > avail && !blocks.is_empty() {
                flush(&mut blocks, kinds);
                used = 0.0;
            }
            if first_row {
                blocks.push(Block::Section { chapter: p });
                used += section_h;
                first_row = false;
            }
            for slot in &mut key.page[p][first..first + n] {
                *slot = kinds.len() + 1;
            }
            blocks.push(Block::Row {
                chapter: p,
                first,
                n,
                height,
            });
            used += height;
        }
    }
    if !blocks.is_empty() {
        flush(&mut blocks, kinds);
    }
    balance_last_page(ty, chapters, live.w, avail, kinds, &mut key);
    Ok(key)
}

/// The columns, and the tallest drawing, that put the most of a section's answers on a
/// page (`room` mm tall under its heading) while every one stays legible: drawings as
/// wide as their column, or shorter when one more row a page then fits. Of layouts
/// that hold as many, the one with the largest drawings.
pub(super) fn densest_columns(
    ty: &Type,
    chapter: &Chapter,
    width: f32,
    room: f32,
    max_draw_h: f32,
) -> (usize, f32) {
    // The best so far: (answers a page, drawing height, columns).
    let mut best: Option<(usize, f32, usize)> = None;
    // The tallest drawing for its width sets a row's height.
    let tallest = (0..chapter.items.len())
        .map(|i| chapter.items.answer_aspect(i).max(1e-3))
        .fold(f32::MAX, f32::min)
        .max(1e-3);
    for cols in 1..=crate::template::MAX_ANSWER_COLUMNS {
        let w = width / cols as f32 - 2.0 * PAD_MM;
        let lines = (0..chapter.items.len())
            .map(|i| answer_lines(ty, chapter, i, w).len())
            .max()
            .unwrap_or(0);
        let overhead = answer_row_h(ty, 0.0, lines);
        // The drawing at the column's full width (the tallest answer sets the row).
        let natural = (w / tallest).min(max_draw_h);
        let first_rows = ((room / (overhead + natural)).floor() as usize).max(1);
        for rows in first_rows..first_rows + 4 {
            let h = if rows == first_rows {
                natural
            } else {
                // Rows that fill the page exactly, less a little for the boxes'
                // strokes (half a line width outside each box) and rounding.
                ((room - FILL_SLACK_MM) / rows as f32 - overhead).min(natural)
            };
            let per_page = cols * rows;
            let better = best.is_none_or(|(n, bh, _)| per_page > n || (per_page == n && h > bh));
            if h <= 0.0 || !better {
                continue;
            }
            if answers_legible(ty, chapter, w, h) {
                best = Some((per_page, h, cols));
            } else {
                break;
            }
        }
    }
    best.map_or((1, max_draw_h), |(_, h, cols)| (cols, h))
}

/// What a page of answers packed to fill its height keeps free, in mm.
const FILL_SLACK_MM: f32 = 1.0;

/// How tall a block of the answer key is.
fn block_h(ty: &Type, chapters: &[Chapter], w: f32, block: &Block) -> f32 {
    match block {
        Block::Title => line_h(ty.heading) + 5.0,
        Block::Section { chapter } => answer_section_h(ty, &chapters[*chapter], w),
        Block::Row { height, .. } => *height,
    }
}

/// Share of the fullest answer page below which the key's last page looks forgotten.
const LAST_PAGE_MIN_FILL: f32 = 0.4;

/// How many answers `blocks` hold.
fn answers_on(blocks: &[Block]) -> usize {
    blocks
        .iter()
        .map(|b| match b {
            Block::Row { n, .. } => *n,
            _ => 0,
        })
        .sum()
}

/// When the key's last page holds fewer than [`LAST_PAGE_MIN_FILL`] of the answers its
/// fullest page does, and fills less than that share of its height, move rows from the
/// page before (with a heading that would be left alone at its foot), until the two are
/// as even as whole rows allow.
fn balance_last_page(
    ty: &Type,
    chapters: &[Chapter],
    w: f32,
    avail: f32,
    kinds: &mut [Kind],
    key: &mut AnswerKey,
) {
    let fullest = kinds
        .iter()
        .filter_map(|k| match k {
            Kind::Answers(blocks) => Some(answers_on(blocks)),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    let n = kinds.len();
    if n < 2 {
        return;
    }
    let (head, tail) = kinds.split_at_mut(n - 1);
    let (Kind::Answers(before), Kind::Answers(last)) = (&mut head[n - 2], &mut tail[0]) else {
        return;
    };
    let height =
        |blocks: &[Block]| -> f32 { blocks.iter().map(|b| block_h(ty, chapters, w, b)).sum() };
    // Full enough by count, or by height (one large drawing a page).
    if answers_on(last) as f32 >= LAST_PAGE_MIN_FILL * fullest as f32
        || height(last) >= LAST_PAGE_MIN_FILL * avail
    {
        return;
    }
    loop {
        // The rows that go together: the last row, and the heading above it when it
        // would otherwise be left alone at the foot.
        let Some(Block::Row { .. }) = before.last() else {
            return;
        };
        let take = match before.len() {
            l if l >= 2 && matches!(before[l - 2], Block::Section { .. }) => 2,
            _ => 1,
        };
        // The page before keeps at least one row of its own.
        let kept = &before[..before.len() - take];
        if !kept.iter().any(|b| matches!(b, Block::Row { .. })) {
            return;
        }
        let moving = &before[before.len() - take..];
        let moved = answers_on(moving);
        if answers_on(last) + moved > answers_on(before) - moved
            || height(last) + height(moving) > avail
        {
            return;
        }
        let blocks: Vec<Block> = before.drain(before.len() - take..).collect();
        for b in &blocks {
            if let Block::Row {
                chapter,
                first,
                n: k,
                ..
            } = *b
            {
                for slot in &mut key.page[chapter][first..first + k] {
                    *slot = n;
                }
            }
        }
        last.splice(0..0, blocks);
    }
}

/// Height of a section's heading (and its game's note) in the answer key.
pub(super) fn answer_section_h(ty: &Type, chapter: &Chapter, w: f32) -> f32 {
    let mut h = line_h(ty.subhead) + 3.0;
    if let Some(note) = chapter.items.answer_note() {
        let lines = wrap(&typeset(&note), ty.note, ty.regular, w).len();
        h += text_block_h(lines, ty.note) + 2.0;
    }
    h
}

/// What the pages print about the book as a whole.
pub(crate) struct BookText<'a> {
    pub template: &'a Template,
    pub seed: u64,
    pub template_name: Option<&'a str>,
    /// The volume of a series, if the book is one.
    pub volume: Option<u32>,
    pub with_answers: bool,
    /// The PDF creation date, when the book has one.
    pub date: Option<&'a str>,
}
