/**
 * The part of hhp (https://github.com/thlorenz/hhp, a PokerStars hand history parser) the poker
 * history tests read; the package ships plain JavaScript without types.
 */
declare module 'hhp' {
  export interface ParsedAction {
    player: string;
    type: string;
    amount?: number;
    raiseTo?: number;
    allin?: boolean;
    pot?: string | null;
  }

  export interface ParsedHand {
    info?: {
      room: string;
      handid: string;
      pokertype: string;
      limit: string;
      sb: number;
      bb: number;
      gametype: string;
    };
    table?: { tableno: string; maxseats: number; button: number };
    seats: { seatno: number; player: string; chips: number }[];
    posts: { player: string; type: string; amount: number }[];
    hero?: string;
    holecards?: { card1: string; card2: string };
    board?: Record<string, string>;
    preflop: ParsedAction[];
    flop: ParsedAction[];
    turn: ParsedAction[];
    river: ParsedAction[];
    showdown: (ParsedAction & { card1?: string; card2?: string; desc?: string })[];
    summary: { type: string; seatno?: number; player?: string; amount?: number; rake?: number }[];
  }

  export function parseHand(input: string): ParsedHand | undefined;
  export function extractHands(text: string): string[][];
}
