import { nextLink, queryOf } from './paging.js';

describe('Link rel=next', () => {
  it('finds the next link among others, with or without quotes', () => {
    expect(nextLink('</pets?limit=2&cursor=Mg>; rel="next"')).toBe('/pets?limit=2&cursor=Mg');
    expect(nextLink('</pets?id=1>; rel="successor-version", </pets?cursor=NA>; rel=next')).toBe('/pets?cursor=NA');
    expect(nextLink('</a>; rel="prev next"')).toBe('/a');
    expect(nextLink('</pets?id=1>; rel="successor-version"')).toBeNull();
    expect(nextLink('</a>; rel="nextish"')).toBeNull();
    expect(nextLink(null)).toBeNull();
  });

  it('reads the query of a link', () => {
    expect(queryOf('/pets?limit=2&status=sold&cursor=Mg')).toEqual({ limit: '2', status: 'sold', cursor: 'Mg' });
    expect(queryOf('/pets?status=sold&status=pending&cursor=Mg')).toEqual({
      status: ['sold', 'pending'],
      cursor: 'Mg',
    });
  });
});
