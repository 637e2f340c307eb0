/** What the page reads from the server: the board, the live feed's messages, the signed-in member. */

export interface Colour {
  name: string;
  hex: string;
}
export interface Board {
  revision: number;
  width: number;
  height: number;
  palette: Colour[];
  pixels: string;
}
export type WireChange = [number, number, number, number, string | null, number];
export type FeedMessage =
  | { type: 'hello'; revision: number }
  | { type: 'changes'; from: number; revision: number; changes: WireChange[]; names: Record<string, string> }
  | { type: 'reload'; revision: number };
export interface Me {
  client_id: string;
  name: string;
  points: number;
  earned: number;
  spent: number;
  placements: number;
  pixel_cost: number;
  affordable_pixels: number;
  workers: { id: string; label: string }[];
  recent_earnings: { kind: string; points: number; source: string; at: string }[];
}
