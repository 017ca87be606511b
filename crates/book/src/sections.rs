//! A book's sections: each generated through the registry into a type-erased section
//! (what the book prints of it), ordered easiest first, with their how-to-play pages.

use super::*;

/// Every name a book gives a game, game by game in registry order (see
/// [`Present::TITLES`]).
pub(super) fn game_titles<R: Registry>() -> Vec<&'static str> {
    struct Titles;
    impl GameVisitor for Titles {
        type Output = &'static [&'static str];
        fn visit<G: Present>(self) -> Self::Output {
            G::TITLES
        }
    }
    R::GAMES
        .iter()
        .filter_map(|name| R::visit(name, Titles).ok())
        .flatten()
        .copied()
        .collect()
}

/// Every game's names that are trademarks of others (see [`Present::TRADEMARKS`]).
pub(super) fn game_trademarks<R: Registry>() -> Vec<&'static str> {
    struct Marks;
    impl GameVisitor for Marks {
        type Output = &'static [&'static str];
        fn visit<G: Present>(self) -> Self::Output {
            G::TRADEMARKS
        }
    }
    R::GAMES
        .iter()
        .filter_map(|name| R::visit(name, Marks).ok())
        .flatten()
        .copied()
        .collect()
}

/// A generated section, with the game's type erased for layout: the game's [`Present`]
/// methods for its items (`len` and `index` besides: how many, and which of the run
/// each is).
pub(super) trait SectionItems: Send + Sync {
    fn len(&self) -> usize;
    fn aspect(&self) -> f32;
    fn draw(&self, i: usize, canvas: &mut Canvas, area: Rect);
    fn draw_cover(&self, i: usize, canvas: &mut Canvas, area: Rect);
    fn cover_aspect(&self) -> f32;
    fn caption(&self, i: usize) -> String;
    fn answer(&self, i: usize) -> String;
    fn rating(&self, i: usize) -> Option<Rating>;
    fn answer_aspect(&self, i: usize) -> f32;
    fn answer_units(&self, i: usize) -> Option<(f32, f32)>;
    fn answer_unit_mm(&self) -> f32;
    fn draw_answer(&self, i: usize, canvas: &mut Canvas, area: Rect);
    fn answer_note(&self) -> Option<String>;
    fn how_to_play(&self) -> String;
    fn draw_example(&self, canvas: &mut Canvas, area: Rect) -> bool;
    fn has_answers(&self) -> bool;
    fn label(&self) -> &'static str;
    fn title(&self) -> &'static str;
    fn index(&self, i: usize) -> u64;
    fn size_label(&self) -> Option<String>;
    fn motif(&self) -> Motif;
    fn example_detail(&self) -> u8;
}

pub(super) struct Generated<G: Present> {
    pub(super) game: G,
    pub(super) items: Vec<Item<G::Puzzle>>,
}

impl<G: Present> SectionItems for Generated<G> {
    fn len(&self) -> usize {
        self.items.len()
    }
    fn aspect(&self) -> f32 {
        self.game.aspect()
    }
    fn draw(&self, i: usize, canvas: &mut Canvas, area: Rect) {
        self.game.draw(&self.items[i].puzzle, canvas, area, false);
    }
    fn draw_cover(&self, i: usize, canvas: &mut Canvas, area: Rect) {
        self.game.draw_cover(&self.items[i].puzzle, canvas, area);
    }
    fn cover_aspect(&self) -> f32 {
        self.game.cover_aspect()
    }
    fn caption(&self, i: usize) -> String {
        self.game.caption(&self.items[i].puzzle)
    }
    fn answer(&self, i: usize) -> String {
        self.game.answer(&self.items[i].puzzle)
    }
    fn rating(&self, i: usize) -> Option<Rating> {
        self.game.rating(&self.items[i].puzzle)
    }
    fn answer_aspect(&self, i: usize) -> f32 {
        self.game.answer_aspect(&self.items[i].puzzle)
    }
    fn answer_units(&self, i: usize) -> Option<(f32, f32)> {
        self.game.answer_units(&self.items[i].puzzle)
    }
    fn answer_unit_mm(&self) -> f32 {
        self.game.answer_unit_mm()
    }
    fn draw_answer(&self, i: usize, canvas: &mut Canvas, area: Rect) {
        self.game.draw_answer(&self.items[i].puzzle, canvas, area);
    }
    fn answer_note(&self) -> Option<String> {
        self.game.answer_note()
    }
    fn how_to_play(&self) -> String {
        self.game.how_to_play()
    }
    fn draw_example(&self, canvas: &mut Canvas, area: Rect) -> bool {
        self.game.draw_example(canvas, area)
    }
    fn has_answers(&self) -> bool {
        self.game.has_answers()
    }
    fn label(&self) -> &'static str {
        self.game.label()
    }
    fn title(&self) -> &'static str {
        self.game.title()
    }
    fn index(&self, i: usize) -> u64 {
        self.items[i].index
    }
    fn size_label(&self) -> Option<String> {
        self.game.size_label()
    }
    fn motif(&self) -> Motif {
        self.game.motif()
    }
    fn example_detail(&self) -> u8 {
        self.game.example_detail()
    }
}

pub(super) struct BuildSection<'a> {
    pub(super) number: usize,
    pub(super) section: &'a template::Section,
    pub(super) run: RunOptions,
    /// A greyscale book: the game draws for it (`Game::for_greyscale`).
    pub(super) grey: bool,
    /// Draw past these puzzles, adding the ones taken.
    pub(super) fresh: Option<&'a std::sync::Mutex<crate::catalogue::Seen>>,
}

/// A section made: its items, what it took past a catalogue, and the index after
/// its last item (where the next volume's stream goes on).
pub(super) type BuiltSection = (Box<dyn SectionItems>, Vec<crate::catalogue::Published>, u64);

impl GameVisitor for BuildSection<'_> {
    type Output = Result<BuiltSection>;
    fn visit<G: Present>(self) -> Self::Output {
        let s = self.section;
        let where_ = format!("section {} ({})", self.number, s.game);
        let mut params = G::Params::deserialize(toml::Value::Table(s.params.clone()))
            .map_err(|e| Error::invalid(format!("{where_} params: {}", e.message().trim())))?;
        if self.grey {
            G::for_greyscale(&mut params);
        }
        let game = G::new(params).map_err(|e| Error::invalid(format!("{where_}: {e}")))?;
        let (items, published) = match self.fresh {
            None => (
                batch::collect(&game, &self.run, s.count as u64)?.0,
                Vec::new(),
            ),
            Some(seen) => {
                let mut seen = seen.lock().unwrap_or_else(|p| p.into_inner());
                let (items, taken) =
                    batch::collect_fresh(&game, &self.run, s.count as u64, &mut seen)?;
                let number = self.number;
                let published =
                    crate::catalogue::published(G::NAME, taken, |i| format!("{number}.{i}"));
                (items, published)
            }
        };
        let next = items.last().map_or(self.run.first, |i| i.index + 1);
        Ok((Box::new(Generated { game, items }), published, next))
    }
}

/// What makes the sections' puzzles: the book's template, options and seed, and the
/// puzzles to draw past.
pub(super) struct Maker<'a> {
    pub(super) template: &'a Template,
    pub(super) opts: &'a BookOptions,
    pub(super) seed: u64,
    pub(super) fresh: Option<std::sync::Arc<std::sync::Mutex<crate::catalogue::Seen>>>,
}

impl Maker<'_> {
    /// Section `i`'s seed: its own, else the book's plus `i + 1`.
    pub(super) fn section_seed(&self, i: usize, s: &template::Section) -> u64 {
        s.seed
            .unwrap_or_else(|| self.seed.wrapping_add(i as u64 + 1))
    }

    /// Generate section `i`'s puzzles from index `first` on (`label` names the run).
    pub(super) fn build<R: Registry>(
        &self,
        i: usize,
        s: &template::Section,
        first: u64,
        label: String,
    ) -> Result<BuiltSection> {
        let run = RunOptions {
            seed: self.section_seed(i, s),
            env: self.opts.env.clone(),
            first,
            label,
            ..RunOptions::default()
        };
        R::visit(
            &s.game,
            BuildSection {
                number: i + 1,
                section: s,
                run,
                grey: self.template.color == template::ColorMode::Gray,
                fresh: self.fresh.as_deref(),
            },
        )
        .map_err(|e| match e {
            e @ Error::UnknownGame { .. } => Error::invalid(format!("section {}: {e}", i + 1)),
            e => e,
        })?
    }
}

/// The book's sections, generated and ordered, with their "how to play" pages.
pub(super) struct Sections {
    /// One a template section, in its order.
    pub(super) chapters: Vec<Chapter>,
    /// One a game and rule set.
    pub(super) howtos: Vec<HowTo>,
    /// The puzzles taken past a catalogue or the earlier volumes.
    pub(super) published: Vec<crate::catalogue::Published>,
    /// Puzzles in the book.
    pub(super) puzzles: usize,
}

/// Generate every section (a volume's after the puzzles of the volumes before it),
/// each ordered easiest first, and the "how to play" pages they need.
pub(super) fn generate<R: Registry>(
    template: &Template,
    opts: &BookOptions,
    seed: u64,
) -> Result<Sections> {
    // A volume draws past the catalogue (if any) and past every earlier volume.
    let fresh = match (&opts.fresh, opts.volume) {
        (Some(f), _) => Some(f.clone()),
        (None, Some(_)) => Some(Default::default()),
        (None, None) => None,
    };
    let maker = Maker {
        template,
        opts,
        seed,
        fresh,
    };
    // Each section's stream goes on from where the volume before stopped.
    let mut first = vec![0u64; template.sections.len()];
    for v in 1..opts.volume.unwrap_or(1) {
        for (i, s) in template.sections.iter().enumerate() {
            let label = format!("volume {v}, section {} ({})", i + 1, s.game);
            first[i] = maker.build::<R>(i, s, first[i], label)?.2;
        }
    }
    let mut chapters = Vec::new();
    let mut howtos: Vec<HowTo> = Vec::new();
    let mut published = Vec::new();
    let mut number = 1;
    for (i, s) in template.sections.iter().enumerate() {
        let section_seed = maker.section_seed(i, s);
        let label = format!("section {} ({})", i + 1, s.game);
        let (items, took, _) = maker.build::<R>(i, s, first[i], label)?;
        published.extend(took);
        let order = easiest_first(items.as_ref());
        let howto = howto_for(&mut howtos, items.as_ref(), chapters.len());
        chapters.push(Chapter {
            number: i + 1,
            heading: typeset(s.heading.as_deref().unwrap_or(items.title())),
            intro: s.intro.as_deref().map(typeset),
            // Large print: half as many puzzles a page (rounded up), so each is larger.
            per_page: if template.large_print {
                s.per_page.div_ceil(2)
            } else {
                s.per_page
            },
            seed: section_seed,
            game: s.game.clone(),
            params: params_inline(&s.params),
            first_number: number,
            order,
            howto,
            items,
        });
        number += s.count;
    }
    Ok(Sections {
        chapters,
        howtos,
        published,
        puzzles: number - 1,
    })
}

/// A section's items easiest first, by the game's own measure; ties keep the
/// generation order.
pub(super) fn easiest_first(items: &dyn SectionItems) -> Vec<usize> {
    let mut order: Vec<usize> = (0..items.len()).collect();
    let scores: Vec<f64> = order
        .iter()
        .map(|&k| items.rating(k).map_or(0.0, |r| r.score))
        .collect();
    order.sort_by(|&a, &b| scores[a].total_cmp(&scores[b]).then(a.cmp(&b)));
    order
}

/// The "how to play" page of chapter `chapter` (whose items are `items`): the page
/// with the same text, which draws its example from this chapter if it shows more,
/// else a new page.
pub(super) fn howto_for(
    howtos: &mut Vec<HowTo>,
    items: &dyn SectionItems,
    chapter: usize,
) -> usize {
    let text = typeset(&items.how_to_play());
    match howtos.iter().position(|h| h.text == text) {
        Some(h) => {
            if items.example_detail() > howtos[h].detail {
                howtos[h].example = chapter;
                howtos[h].detail = items.example_detail();
            }
            h
        }
        None => {
            howtos.push(HowTo {
                title: items.title().to_string(),
                text,
                chapter,
                example: chapter,
                detail: items.example_detail(),
            });
            howtos.len() - 1
        }
    }
}

/// Two rule sets of one game: the second and later pages are named after their
/// first section too. When the heading does not tell them apart either (a section
/// headed only with the game's name), the page names its sections.
pub(super) fn name_howtos(howtos: &mut [HowTo], chapters: &[Chapter]) {
    for h in 0..howtos.len() {
        if howtos[..h].iter().any(|o| o.title == howtos[h].title) {
            let heading = chapters[howtos[h].chapter].heading.clone();
            let named = if heading.contains(&howtos[h].title) {
                heading
            } else {
                format!("{} ({heading})", howtos[h].title)
            };
            howtos[h].title = if howtos[..h].iter().any(|o| o.title == named) {
                let sections: Vec<String> = chapters
                    .iter()
                    .filter(|c| c.howto == h)
                    .map(|c| c.number.to_string())
                    .collect();
                format!(
                    "{} (section{} {})",
                    howtos[h].title,
                    if sections.len() == 1 { "" } else { "s" },
                    sections.join(", ")
                )
            } else {
                named
            };
        }
    }
}
