/** The inventory module's public entry: all that other modules and the composition root may import from it. */
export { type InventoryItem, InventoryRepository } from './domain/inventory.repository.js';
export { type InventoryLine, type LineChange, restock, type StockLine } from './domain/inventory-line.js';
export { InsufficientStockError } from './domain/inventory.errors.js';
export { type InventoryChanged, inventoryLineEvents } from './domain/inventory.events.js';
export { InventoryItemResponse } from './http/dto/inventory-item.response.js';
export { SetInventoryDto } from './http/dto/set-inventory.dto.js';
export { InventoryService } from './application/inventory.service.js';
export { INVENTORY_ENTITIES, InventoryModule } from './inventory.module.js';
