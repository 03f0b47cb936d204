import { Global, Module } from '@nestjs/common';
import { ShutdownState } from './shutdown-state.js';

/** The shutdown state, shared by the readiness check and `installGracefulShutdown`. */
@Global()
@Module({ providers: [ShutdownState], exports: [ShutdownState] })
export class LifecycleModule {}
