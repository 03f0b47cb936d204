import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DatabaseHealth } from './database.health.js';
import { HealthController } from './health.controller.js';
import { RedisHealth } from './redis.health.js';

/** GET /health/live and GET /health/ready (@nestjs/terminus). */
@Module({
  imports: [TerminusModule.forRoot({ errorLogStyle: 'json' })],
  controllers: [HealthController],
  providers: [DatabaseHealth, RedisHealth],
})
export class HealthModule {}
