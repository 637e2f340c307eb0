import { describe, expect, it } from 'vitest';
import { reminderTaskId, reminderTimes, streakBreaksAt } from '../../utils/cookies/collectReminders.js';

const at = (iso: string) => new Date(iso);

describe('when the reminders of a collect fall due', () => {
  it('GIVEN a collect on a morning THEN its streak breaks at the end of the next UTC day, and the warning comes 4 h before', () => {
    const lastAt = at('2026-03-01T09:30:00Z');
    expect(streakBreaksAt(lastAt)).toEqual(at('2026-03-03T00:00:00Z'));
    expect(reminderTimes({ lastAt, until: at('2026-03-01T10:30:00Z'), streak: 3 }, 4)).toEqual({
      collect_ready: at('2026-03-01T10:30:00Z'),
      streak_risk: at('2026-03-02T20:00:00Z'),
    });
  });

  it('GIVEN a cooldown that ends after the warning time THEN the warning waits for it; one that outlasts the streak THEN none', () => {
    const lastAt = at('2026-03-01T23:00:00Z');
    const late = reminderTimes({ lastAt, until: at('2026-03-02T22:00:00Z'), streak: 1 }, 4);
    expect(late.streak_risk).toEqual(at('2026-03-02T22:00:00Z'));
    const never = reminderTimes({ lastAt, until: at('2026-03-03T00:00:00Z'), streak: 1 }, 4);
    expect(never.streak_risk).toBeNull();
  });

  it('GIVEN one member, kind and due time THEN one task id, and another due time another', () => {
    const due = at('2026-03-02T20:00:00Z');
    expect(reminderTaskId('streak_risk', '42', due)).toBe(reminderTaskId('streak_risk', '42', new Date(due)));
    expect(reminderTaskId('streak_risk', '42', due)).not.toBe(
      reminderTaskId('streak_risk', '42', at('2026-03-03T20:00:00Z')),
    );
    expect(reminderTaskId('streak_risk', '42', due)).not.toBe(reminderTaskId('collect_ready', '42', due));
  });
});
