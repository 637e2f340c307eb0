/**
 * One picture in `npm run shots`: a file under `out/shots/`, the group it is
 * listed under on the contact sheet, and what it shows.
 */
export interface Shot {
  /** Path relative to the shots folder, e.g. `images/profile-de.png`. */
  file: string;
  /** Contact-sheet section: `Images`, `Web page`, `Discord replies`, … */
  group: string;
  /** One line saying what the picture shows, e.g. `Profile card · German · long name`. */
  title: string;
}
