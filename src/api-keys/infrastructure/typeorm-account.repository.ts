import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, MoreThan, type Repository } from 'typeorm';
import { managerOf, PG_UNIQUE_VIOLATION, toInt8, violatedConstraint } from '../../database/index.js';
import type { Transaction } from '../../shared/unit-of-work/unit-of-work.js';
import type { Account, AccountChanges, NewAccount } from '../domain/account.js';
import { AccountExternalIdTakenError } from '../domain/account.errors.js';
import type {
  AccountDeletion,
  AccountRepository,
  TransactionalAccountRepository,
} from '../domain/account.repository.js';
import { AccountMapper } from './account.mapper.js';
import { AccountOrmEntity } from './account.orm-entity.js';

@Injectable()
export class TypeOrmAccountRepository implements AccountRepository, TransactionalAccountRepository {
  /** Set on a repository bound to a transaction: reading an account locks its row until the commit. */
  private bound = false;

  constructor(@InjectRepository(AccountOrmEntity) private readonly rows: Repository<AccountOrmEntity>) {}

  in(tx: Transaction): AccountRepository {
    const repository = new TypeOrmAccountRepository(managerOf(tx).getRepository(AccountOrmEntity));
    repository.bound = true;
    return repository;
  }

  async create(account: NewAccount): Promise<Account> {
    const row = this.rows.create({
      name: account.name,
      plan: account.plan,
      limitPerMinute: account.limits?.perMinute ?? null,
      limitPerDay: account.limits?.perDay ?? null,
      externalId: account.externalId,
    });
    try {
      return AccountMapper.toDomain(await this.rows.save(row));
    } catch (error) {
      throw this.translated(error, account.externalId);
    }
  }

  async findById(id: number): Promise<Account | null> {
    const row = await this.rows.findOne({
      where: { id: toInt8(id) },
      ...(this.bound ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    return row && AccountMapper.toDomain(row);
  }

  async list(afterId: number | null, limit: number): Promise<Account[]> {
    const rows = await this.rows.find({
      where: afterId === null ? {} : { id: MoreThan(toInt8(afterId)) },
      order: { id: 'ASC' },
      take: limit,
    });
    return rows.map(AccountMapper.toDomain);
  }

  async update(id: number, changes: AccountChanges): Promise<Account | null> {
    const columns: Partial<AccountOrmEntity> = {};
    if (changes.name !== undefined) columns.name = changes.name;
    if (changes.plan !== undefined) columns.plan = changes.plan;
    if (changes.limits !== undefined) {
      columns.limitPerMinute = changes.limits?.perMinute ?? null;
      columns.limitPerDay = changes.limits?.perDay ?? null;
    }
    if (changes.externalId !== undefined) columns.externalId = changes.externalId;
    try {
      if (Object.keys(columns).length > 0) await this.rows.update({ id: toInt8(id) }, columns);
    } catch (error) {
      throw this.translated(error, changes.externalId ?? '');
    }
    return this.findById(id);
  }

  delete(id: number): Promise<AccountDeletion> {
    // Bound to a transaction: in it; else in one of its own.
    return this.bound
      ? this.deleteIn(this.rows.manager, id)
      : this.rows.manager.transaction((manager) => this.deleteIn(manager, id));
  }

  private async deleteIn(manager: EntityManager, id: number): Promise<AccountDeletion> {
    // The row lock waits for keys joining the account now (their foreign key takes a share lock on it),
    // and makes those that come later fail on the foreign key: no live key is left behind.
    const found: unknown[] = await manager.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [toInt8(id)]);
    if (found.length === 0) return 'not_found';
    const live: unknown[] = await manager.query(
      'SELECT 1 FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL LIMIT 1',
      [toInt8(id)],
    );
    if (live.length > 0) return 'has_live_keys';
    await manager.query('DELETE FROM accounts WHERE id = $1', [toInt8(id)]);
    return 'deleted';
  }

  private translated(error: unknown, externalId: string | null): unknown {
    return violatedConstraint(error, PG_UNIQUE_VIOLATION) === 'UQ_accounts_external_id'
      ? new AccountExternalIdTakenError(externalId ?? '')
      : error;
  }
}
