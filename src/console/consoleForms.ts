import type { Locale } from '../i18n/i18n.js';
import type { CommandModule, ModalSpec, UserMenuCommand } from '../interactions/types.js';
import { ConsoleLineError } from './consoleTexts.js';
import type { FormLine } from './parseFormLine.js';

/** What a `!submit` line puts in the form's boxes, by their ids: named, or the one box's value. */
export function filledForm(
  modal: ModalSpec,
  line: Extract<FormLine, { kind: 'submit' }>,
): Record<string, string> {
  const offered = modal.inputs.map((input) => input.customId).join(', ');
  if (line.value !== null) {
    const [only] = modal.inputs;
    if (!only || modal.inputs.length > 1)
      throw new ConsoleLineError('core:console.formNeedsBoxes', { title: modal.title, offered });
    return { [only.customId]: line.value };
  }
  const fields: Record<string, string> = {};
  for (const [box, value] of line.fields) {
    if (!modal.inputs.some((input) => input.customId === box))
      throw new ConsoleLineError('core:console.noBox', { title: modal.title, box, offered });
    fields[box] = value;
  }
  return fields;
}

/** The context-menu entry a member picks by the name their client shows (or its default name). */
export function menuEntry(
  commands: readonly CommandModule[],
  entry: string,
  locale: Locale,
): UserMenuCommand {
  const menus = commands.flatMap((command) => command.userMenus ?? []);
  const shown = (menu: UserMenuCommand) =>
    (menu.data.name_localizations as Partial<Record<Locale, string>> | undefined)?.[locale] ?? menu.data.name;
  const wanted = entry.toLowerCase();
  const found = menus.find(
    (menu) => shown(menu).toLowerCase() === wanted || menu.data.name.toLowerCase() === wanted,
  );
  if (!found)
    throw new ConsoleLineError('core:console.noMenuEntry', {
      entry,
      known: menus.map((menu) => `"${shown(menu)}"`).join(', '),
    });
  return found;
}
