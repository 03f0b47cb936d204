import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { managerOf, toInt8 } from '../../../../src/database/index.js';
import type { Transaction } from '../../../../src/shared/unit-of-work/unit-of-work.js';
import type { LoyaltyPointsRepository } from '../domain/loyalty-points.repository.js';
import { ExampleLoyaltyPointsOrmEntity } from './loyalty-points.orm-entity.js';

/** Points over the `example_loyalty_points` table; each change is one atomic statement in the given transaction. */
@Injectable()
export class TypeOrmLoyaltyPointsRepository implements LoyaltyPointsRepository {
  constructor(
    @InjectRepository(ExampleLoyaltyPointsOrmEntity) private readonly rows: Repository<ExampleLoyaltyPointsOrmEntity>,
  ) {}

  async pointsOf(keyId: number): Promise<number> {
    return (await this.rows.findOneBy({ apiKeyId: toInt8(keyId) }))?.points ?? 0;
  }

  async add(keyId: number, points: number, tx: Transaction): Promise<void> {
    await managerOf(tx).query(
      `INSERT INTO example_loyalty_points (api_key_id, points) VALUES ($1, $2)
       ON CONFLICT (api_key_id) DO UPDATE SET points = example_loyalty_points.points + EXCLUDED.points`,
      [toInt8(keyId), points],
    );
  }

  async take(keyId: number, points: number, tx: Transaction): Promise<boolean> {
    const [rows] = await managerOf(tx).query<[unknown[], number]>(
      'UPDATE example_loyalty_points SET points = points - $2 WHERE api_key_id = $1 AND points >= $2 RETURNING points',
      [toInt8(keyId), points],
    );
    return rows.length > 0;
  }
}
