import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { TypeOrmStockRepository } from '../inventory/infrastructure/typeorm-stock.repository.js';
import { OrderOrmEntity } from '../orders/infrastructure/order.orm-entity.js';
import { TypeOrmIdempotencyRepository } from '../orders/infrastructure/typeorm-idempotency.repository.js';
import { TypeOrmOrderRepository } from '../orders/infrastructure/typeorm-order.repository.js';
import { PetOrmEntity } from '../pets/infrastructure/pet.orm-entity.js';
import { TypeOrmPetRepository } from '../pets/infrastructure/typeorm-pet.repository.js';
import type { Transaction, UnitOfWork } from '../shared/unit-of-work/unit-of-work.js';

/** One PostgreSQL transaction per use case, with every repository bound to it. */
@Injectable()
export class TypeOrmUnitOfWork implements UnitOfWork {
  constructor(private readonly dataSource: DataSource) {}

  run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((manager) => work(this.bind(manager)));
  }

  private bind(manager: EntityManager): Transaction {
    let savepoints = 0;
    return {
      pets: new TypeOrmPetRepository(manager.getRepository(PetOrmEntity)),
      stock: new TypeOrmStockRepository(manager),
      orders: new TypeOrmOrderRepository(manager.getRepository(OrderOrmEntity)),
      idempotency: new TypeOrmIdempotencyRepository(manager),
      savepoint: async <T>(work: () => Promise<T>): Promise<T> => {
        const name = `sp_${++savepoints}`;
        await manager.query(`SAVEPOINT ${name}`);
        try {
          const result = await work();
          await manager.query(`RELEASE SAVEPOINT ${name}`);
          return result;
        } catch (error) {
          await manager.query(`ROLLBACK TO SAVEPOINT ${name}`);
          throw error;
        }
      },
    };
  }
}
