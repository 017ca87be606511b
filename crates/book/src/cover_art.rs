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
    let badge = cover_badge(chapters, with_answers);
    let (w, h) = template.page_size.mm();
    let front = cover::FrontPlan::new(
        w,
        h,
        cover::FrontParts {
            large_print: template.large_print,
            volume: volume.is_some(),
            badge: badge.is_some(),
            level: badge.as_ref().is_some_and(|b| b.level.is_some()),
            author: !template.author.trim().is_empty(),
        },
    );
    let art_at = cover_art_at(chapters, &pool, &front);
    let art = art_at.filter(|_| template.cover.art).map(|i| {
        let (c, k) = pool[i];
        draw_for_cover(
            chapters,
            (c, k),
            front.art_box(chapters[c].items.cover_aspect()),
        )
    });
    let (sample, sample_note) = cover_sample(template, chapters, &pool, art_at.map(|i| pool[i]));
    let answered = chapters.iter().filter(|ch| ch.items.has_answers()).count();
    let answers = match (with_answers, answered == chapters.len()) {
        (false, _) => None,
        (true, true) => Some("Answers to every puzzle at the back".to_string()),
        (true, false) => Some("Answers at the back".to_string()),
    };
    cover::CoverFacts {
        theme,
        front,
        art,
        badge,
        sample,
        sample_note,
        inside: cover_inside(chapters),
        answers,
        large_print: template.large_print,
        volume,
    }
}

/// The front's count plate: how many of the book's commonest item (by label, the
/// first on a tie), the range of their stars, and "with solutions" when the book's
/// answer key solves every one of them. None for a book without items.
pub(super) fn cover_badge(chapters: &[Chapter], with_answers: bool) -> Option<cover::Badge> {
    let mut by_label: Vec<(&str, usize)> = Vec::new();
    for ch in chapters {
        let label = ch.items.label();
        match by_label.iter_mut().find(|(l, _)| *l == label) {
            Some((_, n)) => *n += ch.items.len(),
            None => by_label.push((label, ch.items.len())),
        }
    }
    let (label, count) = by_label
        .iter()
        .fold(None, |best: Option<(&str, usize)>, &(l, n)| match best {
            Some((_, b)) if b >= n => best,
            _ => Some((l, n)),
        })
        .filter(|&(_, n)| n > 0)?;
    let counted: Vec<&Chapter> = chapters
        .iter()
        .filter(|ch| ch.items.label() == label)
        .collect();
    let stars = counted
        .iter()
        .flat_map(|ch| (0..ch.items.len()).filter_map(|i| ch.items.rating(i)))
        .map(|r| r.stars.clamp(1, 5))
        .fold(None, |range: Option<(u8, u8)>, s| {
            Some(range.map_or((s, s), |(lo, hi)| (lo.min(s), hi.max(s))))
        });
    let solved = with_answers && counted.iter().all(|ch| ch.items.has_answers());
    Some(cover::Badge::new(count, label, stars, solved))
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
    chapters: &[Chapter],
    pool: &[(usize, usize)],
    front: &cover::FrontPlan,
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
    let colours = |c: usize| {
        let ch = &chapters[c];
        let mut canvas = Canvas::new();
        ch.items.draw_cover(
            ch.order[0],
            &mut canvas,
            front.art_box(ch.items.cover_aspect()),
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

/// Puzzle `k` (in book order) of chapter `c`, drawn as a cover shows it in `area`.
pub(super) fn draw_for_cover(chapters: &[Chapter], (c, k): (usize, usize), area: Rect) -> Canvas {
    let ch = &chapters[c];
    let mut canvas = Canvas::new();
    ch.items.draw_cover(ch.order[k], &mut canvas, area);
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
) -> (Option<cover::Sample>, Option<String>) {
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
    let (w, h) = template.page_size.mm();
    let sample = others
        .get(others.len() / 2)
        .filter(|_| template.cover.inside)
        .and_then(|&(c, k)| {
            let ch = &chapters[c];
            let aspect = ch.items.cover_aspect();
            // One drawing a height, largest first; those whose text would be too
            // small to read are left out, and a height the drawing cannot use (a
            // wide board stops growing at the back's width) is drawn once.
            let mut boxes: Vec<Rect> = Vec::new();
            for share in cover::SAMPLE_SHARES {
                let b = cover::sample_box(w, h, aspect, share);
                if boxes.last().is_none_or(|l| (l.h - b.h).abs() > 0.5) {
                    boxes.push(b);
                }
            }
            let drawings: Vec<Canvas> = boxes
                .into_iter()
                .map(|b| draw_for_cover(chapters, (c, k), b))
                .filter(|d| {
                    d.min_text_pt()
                        .is_none_or(|t| t >= crate::canvas::MIN_TEXT_PT - 1e-3)
                })
                .collect();
            if drawings.is_empty() {
                sample_note = Some(format!(
                    "the back cover has no sample puzzle: at the size the back leaves for it, its text would be under {} pt",
                    crate::canvas::MIN_TEXT_PT
                ));
                return None;
            }
            Some(cover::Sample {
                caption: format!("{} {}, from inside", ch.items.label(), ch.number_of(k)),
                drawings,
            })
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
