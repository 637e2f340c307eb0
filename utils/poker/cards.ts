/** A card as the evaluator writes it: rank (`2`–`9`, `T`, `J`, `Q`, `K`, `A`) then suit (`s h d c`). */
export type Card = string;

export const RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'];
export const SUITS = ['s', 'h', 'd', 'c'];
export const FULL_DECK: readonly Card[] = SUITS.flatMap((s) => RANKS.map((r) => `${r}${s}`));
