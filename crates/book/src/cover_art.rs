//! What a cover takes from the book's sections: its facts, the motif and colours of the
//! game that fills most of it, the sample puzzle drawn on it, and what's inside.

use super::*;

/// What the cover shows of the book. The theme is the motif of the game with the most
/// puzzles (the first such section's, on a tie) unless the template names one. The
/// front's art is the hardest puzzle of that game by its own rating (the later one on
/// a tie; without ratings, the last puzzle of its most colourful section, the later
/// on a tie, as sections run easiest first); the back's sample is the puzzle half-way through that game's
/// puzzles in book order, never the front's.
pub(super) fn cover_facts(
    template: &Template,
    chapters: &[Chapter],
    with_answers: bool,
    volume: Option<u32>,
) -> cover::CoverFacts {
    let main = main_motif(chapters);
    let theme = template.cover.theme.unwrap_or(main);
    // The main game's puzzles in book order: (chapter, position in its order).
    let pool: Vec<(usize, usize)> = chapters
        .iter()
        .enumerate()
        .filter(|(_, ch)| ch.items.motif() == main)
        .flat_map(|(c, ch)| (0..ch.order.len()).map(move |k| (c, k)))
        .collect();
    let art_at = cover_art_at(template, chapters, &pool);
    let art = art_at
        .filter(|_| template.cover.art)
        .map(|i| draw_for_cover(template, chapters, pool[i], cover::art_box));
    let (sample, sample_note) = cover_sample(template, chapters, &pool, art_at.map(|i| pool[i]));
    let answered = chapters.iter().filter(|ch| ch.items.has_answers()).count();
    let answers = match (with_answers, answered == chapters.len()) {
        (false, _) => None,
        (true, true) => Some("Answers to every puzzle at the back".to_string()),
        (true, false) => Some("Answers at the back".to_string()),
    };
    cover::CoverFacts {
        theme,
        art,
        sample,
        sample_note,
        inside: cover_inside(chapters),
        answers,
        large_print: template.large_print,
        volume,
    }
}

/// The motif of the game with the most puzzles (the first such on a tie; the grid
/// for a book without sections).
pub(super) fn main_motif(chapters: &[Chapter]) -> Motif {
    let mut by_motif: Vec<(Motif, usize)> = Vec::new();
    for ch in chapters {
        let m = ch.items.motif();
        match by_motif.iter_mut().find(|(k, _)| *k == m) {
            Some((_, n)) => *n += ch.items.len(),
            None => by_motif.push((m, ch.items.len())),
        }
    }
    // The first motif with the largest count.
    by_motif
        .iter()
        .fold(None, |best: Option<(Motif, usize)>, &(m, n)| match best {
            Some((_, b)) if b >= n => best,
            _ => Some((m, n)),
        })
        .map_or(Motif::Grid, |(m, _)| m)
}

/// Which puzzle of the main game's `pool` the front shows: the hardest by its rating
/// (the later on a tie), else the last puzzle of the most colourful section (the
/// later on a tie).
pub(super) fn cover_art_at(
    template: &Template,
    chapters: &[Chapter],
    pool: &[(usize, usize)],
) -> Option<usize> {
    let score = |&(c, k): &(usize, usize)| {
        let ch = &chapters[c];
        ch.items.rating(ch.order[k]).map(|r| r.score)
    };
    if pool.iter().any(|p| score(p).is_some()) {
        return pool
            .iter()
            .enumerate()
            .filter_map(|(i, p)| score(p).map(|s| (i, s)))
            .fold(None, |best: Option<(usize, f64)>, (i, s)| match best {
                Some((_, b)) if b > s => best,
                _ => Some((i, s)),
            })
            .map(|(i, _)| i);
    }
    // Unrated: the last puzzle of the most colourful section (the later on a tie).
    let (w, h) = template.page_size.mm();
    let colours = |c: usize| {
        let ch = &chapters[c];
        let mut canvas = Canvas::new();
        ch.items.draw(
            ch.order[0],
            &mut canvas,
            cover::art_box(w, h, ch.items.aspect()),
        );
        canvas.fill_colours()
    };
    let mut best: Option<(usize, usize)> = None;
    for (i, &(c, k)) in pool.iter().enumerate() {
        if k + 1 == chapters[c].order.len() {
            let n = colours(c);
            if best.is_none_or(|(_, b)| n >= b) {
                best = Some((i, n));
            }
        }
    }
    best.map(|(i, _)| i)
}

/// Puzzle `k` (in book order) of chapter `c`, drawn in the box `area` gives for the
/// book's trim and the puzzle's aspect.
pub(super) fn draw_for_cover(
    template: &Template,
    chapters: &[Chapter],
    (c, k): (usize, usize),
    area: fn(f32, f32, f32) -> Rect,
) -> Canvas {
    let (w, h) = template.page_size.mm();
    let ch = &chapters[c];
    let mut canvas = Canvas::new();
    ch.items
        .draw(ch.order[k], &mut canvas, area(w, h, ch.items.aspect()));
    canvas
}

/// The back's sample puzzle and its caption: half-way through the main game's
/// puzzles (`pool`), else (a main game with one puzzle, on the front, `art_cell`)
/// half-way through the book's other puzzles; or the note saying why there is none.
pub(super) fn cover_sample(
    template: &Template,
    chapters: &[Chapter],
    pool: &[(usize, usize)],
    art_cell: Option<(usize, usize)>,
) -> (Option<(Canvas, String)>, Option<String>) {
    let others: Vec<(usize, usize)> = if pool.len() > 1 {
        pool.iter()
            .copied()
            .filter(|&p| Some(p) != art_cell)
            .collect()
    } else {
        chapters
            .iter()
            .enumerate()
            .flat_map(|(c, ch)| (0..ch.order.len()).map(move |k| (c, k)))
            .filter(|&p| Some(p) != art_cell)
            .collect()
    };
    let mut sample_note = None;
    let sample = others
        .get(others.len() / 2)
        .filter(|_| template.cover.inside)
        .and_then(|&(c, k)| {
            let ch = &chapters[c];
            let drawn = draw_for_cover(template, chapters, (c, k), cover::sample_box);
            if drawn
                .min_text_pt()
                .is_some_and(|t| t < crate::canvas::MIN_TEXT_PT - 1e-3)
            {
                sample_note = Some(format!(
                    "the back cover has no sample puzzle: at the size the back leaves for it, its text would be under {} pt",
                    crate::canvas::MIN_TEXT_PT
                ));
                return None;
            }
            Some((
                drawn,
                format!("{} {}, from inside", ch.items.label(), ch.number_of(k)),
            ))
        });
    if template.cover.inside && others.is_empty() {
        sample_note = Some(
            "the back cover has no sample puzzle: the book's one puzzle is on the front".into(),
        );
    }
    (sample, sample_note)
}

/// What's inside: one entry a game, in the order the book first has it, with its
/// count, sizes and stars.
pub(super) fn cover_inside(chapters: &[Chapter]) -> Vec<cover::Inside> {
    let mut inside: Vec<cover::Inside> = Vec::new();
    for ch in chapters {
        let title = ch.items.title();
        let k = match inside.iter().position(|e| e.title == title) {
            Some(k) => k,
            None => {
                inside.push(cover::Inside {
                    title: title.to_string(),
                    label: ch.items.label().to_string(),
                    count: 0,
                    sizes: Vec::new(),
                    stars: [0; 5],
                });
                inside.len() - 1
            }
        };
        let e = &mut inside[k];
        e.count += ch.items.len();
        if let Some(size) = ch.items.size_label() {
            if !e.sizes.contains(&size) {
                e.sizes.push(size);
            }
        }
        for i in 0..ch.items.len() {
            if let Some(r) = ch.items.rating(i) {
                e.stars[usize::from(r.stars.clamp(1, 5)) - 1] += 1;
            }
        }
    }
    inside
}
