import { decodeUsageCursor, encodeUsageCursor, usageCsv } from './usage-export.js';

describe('usage export', () => {
  it('writes CSV with a header row, CRLF line ends and an empty accountId for keys without an account', () => {
    const csv = usageCsv([
      { date: '2026-11-21', keyId: 2, accountId: null, requests: 1000, refused: 212, bans: 1 },
      { date: '2026-11-21', keyId: 5, accountId: 3, requests: 7, refused: 0, bans: 0 },
    ]);
    expect(csv).toBe(
      'date,keyId,accountId,requests,refused,bans\r\n2026-11-21,2,,1000,212,1\r\n2026-11-21,5,3,7,0,0\r\n',
    );
    expect(usageCsv([])).toBe('date,keyId,accountId,requests,refused,bans\r\n');
  });

  it('cursors round-trip, and anything else is not one', () => {
    for (const after of [
      { date: '2026-11-21', keyId: 42, accountId: null },
      { date: '2026-11-21', keyId: 42, accountId: 7 },
    ]) {
      expect(decodeUsageCursor(encodeUsageCursor(after))).toEqual(after);
    }
    // A cursor from before accounts continues after every row of its key and day.
    expect(decodeUsageCursor(Buffer.from('u1:2026-11-21:42').toString('base64url'))).toEqual({
      date: '2026-11-21',
      keyId: 42,
      accountId: Number.MAX_SAFE_INTEGER,
    });
    for (const cursor of ['', 'abc', Buffer.from('v1:5').toString('base64url'), 'a'.repeat(65)]) {
      expect(decodeUsageCursor(cursor)).toBeNull();
    }
  });
});
