//! The registry of games: every game's crate, the one list of games and kinds of
//! statistics (`registry!`, a line each), and [`Games`], the [`Registry`] it makes.
//!
//! The contract itself ([`Game`], [`Solve`], [`statistic::Statistic`]) is the ground
//! crate's (`puzzlebook_ground::game`); a game is a crate under `crates/` with one type
//! implementing it, depending on the ground crate alone, so games never import each
//! other. No other file of the library names a game's type (the command line's
//! per-game subcommands are in `src/cli/games.rs`).

use crate::Result;
pub use puzzlebook_ground::game::{
    Game, GameVisitor, Motif, Outcome, Present, Rating, Registry, Solve,
};
pub use puzzlebook_ground::{size, solve, statistic};
use statistic::{StatVisitor, Statistic};

pub use puzzlebook_carcassonne as carcassonne;
pub use puzzlebook_catan as catan;
pub use puzzlebook_flip as flip;
pub use puzzlebook_number_match as number_match;
pub use puzzlebook_numbrix as numbrix;

/// The one list of games and kinds of statistics: a line each. It makes [`Games`], the
/// registry every floor below is handed, and nothing else names a game's type.
macro_rules! registry {
    (games: $($game:ty,)* ; statistics: $($kind:ty,)*) => {
        /// The registry of this program's games and kinds of statistics.
        pub struct Games;

        impl Registry for Games {
            const GAMES: &'static [&'static str] = &[$(<$game as Game>::NAME,)*];
            const STATISTICS: &'static [&'static str] = &[$(<$kind as Statistic>::KIND,)*];

            fn visit<V: GameVisitor>(name: &str, visitor: V) -> Result<V::Output> {
                let known = Self::canonical(name).unwrap_or(name);
                $(if known == <$game as Game>::NAME {
                    return Ok(visitor.visit::<$game>());
                })*
                Err(crate::Error::UnknownGame {
                    name: name.to_string(),
                    known: Self::GAMES,
                })
            }

            fn visit_statistic<V: StatVisitor>(kind: &str, visitor: V) -> Option<V::Out> {
                let known = Self::statistic_kind(kind)?;
                $(if known == <$kind as Statistic>::KIND {
                    return Some(visitor.visit::<$kind>());
                })*
                None
            }
        }
    };
}

registry! {
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
