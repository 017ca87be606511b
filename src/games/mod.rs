//! The registry of games: every game's crate, the one list of games and kinds of
//! statistics (`registry!`, a line each), and [`Games`], the [`Registry`] it makes.
//!
//! The contract itself ([`Game`], [`Solve`], [`statistic::Statistic`]) is the ground
//! crate's (`puzzlebook_ground::game`); a game is a crate under `crates/` with one type
//! implementing it, depending on the ground crate alone, so games never import each
//! other. No other file of the library names a game's type (the command line's
//! per-game subcommands are in `src/cli/games/`, a file a game).

use crate::Result;
pub use puzzlebook_ground::game::{
    Game, GameVisitor, Motif, Outcome, Present, Rating, Registry, Solve,
};
pub use puzzlebook_ground::{size, solve, statistic};
use statistic::StatVisitor;

pub use puzzlebook_carcassonne as carcassonne;
pub use puzzlebook_catan as catan;
pub use puzzlebook_flip as flip;
pub use puzzlebook_number_match as number_match;
pub use puzzlebook_numbrix as numbrix;

/// A registry: the one list of games and kinds of statistics, a line each, made into
/// the type named first, which the floors below are handed (`book::build::<R>`,
/// `jobs::run::<R>`). This crate makes [`Games`] with it, and nothing else names a
/// game's type; a test may make a registry of its own (a toy game beside real ones).
#[macro_export]
macro_rules! registry {
    ($(#[$meta:meta])* $registry:ident; games: $($game:ty,)* ; statistics: $($kind:ty,)*) => {
        $(#[$meta])*
        pub struct $registry;

        impl $crate::games::Registry for $registry {
            const GAMES: &'static [&'static str] = &[$(<$game as $crate::games::Game>::NAME,)*];
            const STATISTICS: &'static [&'static str] =
                &[$(<$kind as $crate::games::statistic::Statistic>::KIND,)*];

            fn visit<V: $crate::games::GameVisitor>(
                name: &str,
                visitor: V,
            ) -> $crate::Result<V::Output> {
                let known = <Self as $crate::games::Registry>::canonical(name).unwrap_or(name);
                $(if known == <$game as $crate::games::Game>::NAME {
                    return Ok(visitor.visit::<$game>());
                })*
                Err($crate::Error::UnknownGame {
                    name: name.to_string(),
                    known: <Self as $crate::games::Registry>::GAMES,
                })
            }

            fn visit_statistic<V: $crate::games::statistic::StatVisitor>(
                kind: &str,
                visitor: V,
            ) -> Option<V::Out> {
                let _known = <Self as $crate::games::Registry>::statistic_kind(kind)?;
                $(if _known == <$kind as $crate::games::statistic::Statistic>::KIND {
                    return Some(visitor.visit::<$kind>());
                })*
                None
            }
        }
    };
}

registry! {
    /// The registry of this program's games and kinds of statistics.
    Games;
    games:
        flip::Flip,
        catan::Catan,
        numbrix::Numbrix,
        number_match::NumberMatch,
        carcassonne::Carcassonne,
    ;
    statistics:
        catan::sampling::bias_stat::CatanBias,
        carcassonne::stats::CarcassonneStats,
        number_match::stats::MatchStats,
        catan::stats::CatanStats,
}

/// Every game's name, in the order books and help list them.
pub const NAMES: &[&str] = Games::GAMES;

/// Run `visitor` with the game called `name` (either spelling, see
/// [`Registry::canonical`]).
pub fn visit<V: GameVisitor>(name: &str, visitor: V) -> Result<V::Output> {
    Games::visit(name, visitor)
}

/// Run `visitor` with the kind of statistics called `kind` (either spelling); None
/// when no kind has that name.
pub fn visit_statistic<V: StatVisitor>(kind: &str, visitor: V) -> Option<V::Out> {
    Games::visit_statistic(kind, visitor)
}
