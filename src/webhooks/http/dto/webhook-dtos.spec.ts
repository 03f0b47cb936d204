import { createValidationPipe } from '../../../shared/http/validation.pipe.js';
import { ListEventsQuery } from './list-events.query.js';
import { NewWebhookDto, WebhookUpdateDto } from './new-webhook.dto.js';

const pipe = createValidationPipe();

describe('webhook and event DTOs', () => {
  it.each([
    [{}, {}],
    [
      { after: '0', type: ['order.placed', 'inventory.changed'] },
      { after: 0, type: ['order.placed', 'inventory.changed'] },
    ],
  ])('ListEventsQuery accepts %j', async (query, expected) => {
    const value = Object.assign(Object.create(null) as object, query);
    await expect(pipe.transform(value, { type: 'query', metatype: ListEventsQuery })).resolves.toStrictEqual(
      Object.assign(new ListEventsQuery(), expected),
    );
  });

  it.each([
    { url: 'https://shop.example.com/hooks/petstore', events: ['order.placed'] },
    { url: 'https://x.example', events: ['order.placed', 'inventory.changed'], description: 'Warehouse sync' },
  ])('NewWebhookDto accepts %j as it is', async (body) => {
    await expect(pipe.transform(body, { type: 'body', metatype: NewWebhookDto })).resolves.toStrictEqual(
      Object.assign(new NewWebhookDto(), body),
    );
  });

  it.each([{}, { enabled: true }, { events: ['pet.status_changed'], description: '' }])(
    'WebhookUpdateDto accepts %j as it is',
    async (body) => {
      await expect(pipe.transform(body, { type: 'body', metatype: WebhookUpdateDto })).resolves.toStrictEqual(
        Object.assign(new WebhookUpdateDto(), body),
      );
    },
  );
});
