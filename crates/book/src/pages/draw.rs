//! Drawing a planned book, page by page, with running heads and folios.

use super::*;

/// Draw every page.
pub(crate) fn draw_all(
    ty: &Type,
    book: &BookText<'_>,
    chapters: &[Chapter],
    howtos: &[HowTo],
    g: &Geometry,
    plan: &Plan,
) -> Vec<Canvas> {
    use rayon::prelude::*;
    plan.kinds
        .par_iter()
        .enumerate()
        .map(|(i, kind)| {
            let page = i + 1;
            let live = g.live(page);
            let (body, foot) = live.take_bottom(FOOTER_MM);
            let mut c = Canvas::new();
            let mut head = None;
            let mut numbered = true;
            match kind {
                Kind::Title => {
                    title_page(ty, &mut c, body, book, chapters);
                    numbered = false;
                }
                Kind::Copyright => {
                    copyright_page(ty, &mut c, body, book, chapters);
                    numbered = false;
                }
                Kind::Contents { first, n } => contents_page(
                    ty,
                    &mut c,
                    body,
                    &plan.contents[*first..first + n],
                    *first == 0,
                ),
                Kind::HowTo(h) => howto_page(ty, &mut c, body, &howtos[*h], chapters),
                Kind::Puzzles {
                    chapter,
                    first,
                    n,
                    opens,
                } => {
                    if !opens {
                        head = Some(chapters[*chapter].heading.as_str());
                    }
                    let run = PageRun {
                        chapter: *chapter,
                        first: *first,
                        n: *n,
                        opens: *opens,
                    };
                    puzzle_page(ty, &mut c, body, chapters, run, plan);
                }
                Kind::Answers(blocks) => {
                    if page != plan.answers_page {
                        head = Some("Answers");
                    }
                    answer_page(ty, &mut c, body, blocks, chapters, plan);
                }
                Kind::Notes => notes_page(ty, &mut c, body),
            }
            let recto = Geometry::is_recto(page);
            let (x, align) = if recto {
                (live.right(), Align::Right)
            } else {
                (live.x, Align::Left)
            };
            if let Some(h) = head {
                c.text_colored(
                    pt(x, first_baseline(live.y, ty.head)),
                    ty.head,
                    ty.regular,
                    align,
                    GREY,
                    h,
                );
            }
            if numbered {
                c.text(
                    x,
                    foot.bottom() - DESCENT * em(ty.foot),
                    ty.foot,
                    ty.regular,
                    align,
                    &page.to_string(),
                );
            }
            c
        })
        .collect()
}
