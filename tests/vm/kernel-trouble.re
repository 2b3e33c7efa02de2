BUG:|WARNING:|Oops|general protection|hung_task|blocked for more than|soft lockup|hard LOCKUP|RCU stall|UBSAN|KASAN|KFENCE|kernel panic|list_add corruption|list_del corruption
