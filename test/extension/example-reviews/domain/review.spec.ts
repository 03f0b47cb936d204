import { canRemove, normalizeComment } from './review.js';

describe('review rules', () => {
  it('lets the author and admins remove a review, and nobody else', () => {
    const review = { authorKeyId: 7 };
    expect(canRemove({ keyId: 7, admin: false }, review)).toBe(true);
    expect(canRemove({ keyId: 8, admin: true }, review)).toBe(true);
    expect(canRemove({ keyId: 8, admin: false }, review)).toBe(false);
  });

  it.each([
    [undefined, null],
    ['', null],
    ['   ', null],
    ['  Lovely dog \n', 'Lovely dog'],
  ])('stores the comment %j as %j', (comment, stored) => {
    expect(normalizeComment(comment)).toBe(stored);
  });
});
