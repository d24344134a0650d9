BEGIN TRANSACTION;
CREATE TABLE accounts (
	id INTEGER NOT NULL, 
	name VARCHAR(80) NOT NULL, 
	name_fold VARCHAR(400) NOT NULL, 
	name_skeleton VARCHAR(400) NOT NULL, 
	password_hash TEXT, 
	public BOOLEAN DEFAULT 1 NOT NULL, 
	created_at FLOAT NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (name_fold), 
	UNIQUE (name_skeleton)
);
CREATE TABLE actions (
	room_id INTEGER NOT NULL, 
	seq INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	action TEXT NOT NULL, 
	"by" VARCHAR(16) NOT NULL, 
	at FLOAT NOT NULL, 
	PRIMARY KEY (room_id, seq), 
	FOREIGN KEY(room_id) REFERENCES rooms (id) ON DELETE CASCADE
);
INSERT INTO "actions" VALUES(1,1,1,'{"type":"roll","keep":[0,2,4]}','human',1.7966597749538946152e+09);
INSERT INTO "actions" VALUES(1,2,1,'{"type":"roll","keep":[1,3,4]}','human',1.79665977496609449389e+09);
INSERT INTO "actions" VALUES(1,3,0,'{"type":"roll","keep":[]}','human',1.79665977497140479093e+09);
INSERT INTO "actions" VALUES(1,4,0,'{"type":"roll","keep":[1,3]}','human',1.79665977497353363031e+09);
INSERT INTO "actions" VALUES(1,5,0,'{"type":"stop"}','human',1.79665977499481964115e+09);
INSERT INTO "actions" VALUES(1,6,1,'{"type":"roll","keep":[1,2,4]}','human',1.79665977500621223449e+09);
INSERT INTO "actions" VALUES(1,7,1,'{"type":"roll","keep":[0,1,4]}','human',1.79665977501124835011e+09);
INSERT INTO "actions" VALUES(1,8,0,'{"type":"roll","keep":[0,2,3,4]}','human',1.79665977501378798485e+09);
INSERT INTO "actions" VALUES(1,9,0,'{"type":"roll","keep":[0,3,4]}','human',1.79665977501585268972e+09);
INSERT INTO "actions" VALUES(2,1,0,'{"type":"freeze","dice":[0,1,2,3]}','human',1.79665979135181665422e+09);
INSERT INTO "actions" VALUES(2,2,0,'{"type":"freeze","dice":[0,1,2,3]}','human',1.79665979136089038847e+09);
INSERT INTO "actions" VALUES(2,3,1,'{"type":"rethrow"}','human',1.79665979136280918116e+09);
INSERT INTO "actions" VALUES(2,4,1,'{"type":"freeze","dice":[0,1,2,3]}','human',1.79665979137132334709e+09);
INSERT INTO "actions" VALUES(2,5,1,'{"type":"rethrow"}','human',1.79665979138243079183e+09);
INSERT INTO "actions" VALUES(2,6,1,'{"type":"rethrow"}','human',1.79665979138449931145e+09);
INSERT INTO "actions" VALUES(2,7,1,'{"type":"rethrow"}','human',1.79665979139042067532e+09);
INSERT INTO "actions" VALUES(3,1,0,'{"type":"book","category":"6-6-6"}','human',1.79665980759408521654e+09);
INSERT INTO "actions" VALUES(3,2,1,'{"type":"book","category":"two-triplets"}','human',1.79665980760244035725e+09);
INSERT INTO "actions" VALUES(3,3,0,'{"type":"book","category":"two-triplets"}','human',1.79665980760957455638e+09);
INSERT INTO "actions" VALUES(3,4,1,'{"type":"set-aside","dice":[0,5]}','human',1.79665980761960411074e+09);
INSERT INTO "actions" VALUES(3,5,1,'{"type":"book","category":"three-pairs"}','human',1.79665980762718701367e+09);
CREATE TABLE alembic_version (
	version_num VARCHAR(32) NOT NULL, 
	CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);
INSERT INTO "alembic_version" VALUES('0005');
CREATE TABLE bot_ratings (
	pool VARCHAR(200) NOT NULL, 
	bot VARCHAR(40) NOT NULL, 
	mu FLOAT NOT NULL, 
	sigma FLOAT NOT NULL, 
	PRIMARY KEY (pool, bot)
);
CREATE TABLE challenges (
	handle_hash VARCHAR(64) NOT NULL, 
	purpose VARCHAR(16) NOT NULL, 
	challenge VARCHAR(200) NOT NULL, 
	payload TEXT DEFAULT '' NOT NULL, 
	expires_at FLOAT NOT NULL, 
	PRIMARY KEY (handle_hash)
);
CREATE TABLE chat (
	id INTEGER NOT NULL, 
	room_id INTEGER NOT NULL, 
	seat INTEGER, 
	name VARCHAR(80) NOT NULL, 
	text TEXT NOT NULL, 
	at FLOAT NOT NULL, 
	PRIMARY KEY (id), 
	FOREIGN KEY(room_id) REFERENCES rooms (id) ON DELETE CASCADE
);
CREATE TABLE passkeys (
	credential_id VARCHAR(400) NOT NULL, 
	account_id INTEGER NOT NULL, 
	public_key TEXT NOT NULL, 
	sign_count INTEGER DEFAULT '0' NOT NULL, 
	created_at FLOAT NOT NULL, 
	PRIMARY KEY (credential_id), 
	FOREIGN KEY(account_id) REFERENCES accounts (id) ON DELETE CASCADE
);
CREATE TABLE presence (
	room_id INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	process VARCHAR(16) NOT NULL, 
	seen_at FLOAT NOT NULL, 
	PRIMARY KEY (room_id, seat, process), 
	FOREIGN KEY(room_id) REFERENCES rooms (id) ON DELETE CASCADE
);
CREATE TABLE rated_results (
	room_id INTEGER NOT NULL, 
	pool VARCHAR(200) NOT NULL, 
	finished_at FLOAT NOT NULL, 
	places TEXT NOT NULL, 
	PRIMARY KEY (room_id)
);
CREATE TABLE rooms (
	id INTEGER NOT NULL, 
	code VARCHAR(32) NOT NULL, 
	game VARCHAR(40) NOT NULL, 
	options TEXT NOT NULL, 
	room_options TEXT NOT NULL, 
	public BOOLEAN NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	seed VARCHAR(48) NOT NULL, 
	commitment VARCHAR(64) NOT NULL, 
	host_token_hash VARCHAR(64) NOT NULL, 
	seq INTEGER NOT NULL, 
	results TEXT, 
	note TEXT NOT NULL, 
	created_at FLOAT NOT NULL, 
	updated_at FLOAT NOT NULL, entropy VARCHAR(16) DEFAULT 'server' NOT NULL, 
	PRIMARY KEY (id)
);
INSERT INTO "rooms" VALUES(1,'zBGxX3_li6ewzlnj','dice-duel','{"mode": "multi"}','{"hints": false, "odds": false, "spectators": true, "bot_pace": 0.8, "takeover_after": null, "turn_clock": null, "takeover_bot": "", "idle_close": 86400, "rated": false, "pace": "live", "move_time": null, "time_bank": null}',0,'playing','245114101071230972214965785779891568311','f8ce6284a4373c85ccd5015ec6482a08fc715d0c12727f399915ab75b52f08c6','bfe5bb60997d08230abd766f2baa3ff3e5e47388ef7c77011955971bf546d607',9,NULL,'',1.79665975936020898815e+09,1.79665977501585268972e+09,'players-v2');
INSERT INTO "rooms" VALUES(2,'8TEc7EeXMPEDoJkx','decathlon','{"variant": "points", "events": ["100m", "long-jump"]}','{"hints": false, "odds": false, "spectators": true, "bot_pace": 0.8, "takeover_after": null, "turn_clock": null, "takeover_bot": "", "idle_close": 86400, "rated": false, "pace": "live", "move_time": null, "time_bank": null}',0,'playing','70197163223577344310287258837143665013','6a519263dfcd47d8a02395fcd3b08d0462f4292e01a989cee1d171cf97727a6a','f250506a3ca9d9528f8da2203a96a301d6bb2749b08e620bf913a622f4585f61',7,NULL,'',1.79665977513878917688e+09,1.79665979139042067532e+09,'players-v2');
INSERT INTO "rooms" VALUES(3,'2l_EEwTq9yKxmkF7','wurfeltod','{}','{"hints": false, "odds": false, "spectators": true, "bot_pace": 0.8, "takeover_after": null, "turn_clock": null, "takeover_bot": "", "idle_close": 86400, "rated": false, "pace": "live", "move_time": null, "time_bank": null}',0,'playing','261897308685130096176644493785541430004','46fb7a12757e1d7854b28ea329527f8d0f99ea1141bd22649bc25dee1d3a4054','f2eb21af1dc06829c491684d93fe39dc8e0bc1050cb15689a2f7811bf7355ad7',5,NULL,'',1.7966597915275185108e+09,1.79665980762718701367e+09,'players-v2');
CREATE TABLE seats (
	id INTEGER NOT NULL, 
	room_id INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	kind VARCHAR(8) NOT NULL, 
	bot VARCHAR(40) NOT NULL, 
	name VARCHAR(80) NOT NULL, 
	token_hash VARCHAR(64), 
	away_since FLOAT, contribution VARCHAR(800), contributed_by VARCHAR(8), account_id INTEGER, bank FLOAT, 
	PRIMARY KEY (id), 
	UNIQUE (room_id, seat), 
	FOREIGN KEY(room_id) REFERENCES rooms (id) ON DELETE CASCADE
);
INSERT INTO "seats" VALUES(1,1,0,'human','','Old0','b3b8a131714ceb4e16271dd2b2c6767e0fd63f79cddd2509b5916139141909de',1.79665977501791667932e+09,'bdcac70fd2d6b3bf8daa7cae3f72b8f9','server',NULL,NULL);
INSERT INTO "seats" VALUES(2,1,1,'human','','Old1','41e3028e0fe0390bbed31a672beb5c359192659f559e18dd039149296e9bdeba',1.79665977502240753176e+09,'4b654d96392649358acae1ecd03e9181','server',NULL,NULL);
INSERT INTO "seats" VALUES(3,2,0,'human','','Old0','2be6947ed9a655a0b69f7ca9dca40aaa9229892833c23f5d8336fdb7e7851c9a',1.79665979139430952073e+09,'1782675ec0b5bde7ba1e805139ee50c7','server',NULL,NULL);
INSERT INTO "seats" VALUES(4,2,1,'human','','Old1','dd81c4b8d571e8594d086c062a8c5c68799d56c97fedc36afe0a78ba9375ddff',1.79665979140741014483e+09,'41cd84397e789db310b298f56d47936c','server',NULL,NULL);
INSERT INTO "seats" VALUES(5,3,0,'human','','Old0','7e13f9c1ef41ae99ca15b6b9ff057acebc4a247e818e6c8dbc64b9887d5a50f4',1.79665980763202762608e+09,'6a2fe26ab63065f154b0b48027ab8c31','server',NULL,NULL);
INSERT INTO "seats" VALUES(6,3,1,'human','','Old1','ec6ad2ce4ddf3cd8930dee6b069d81d67ab2169beea5d6b235d0c0b0c2d097ca',1.79665980764480662343e+09,'447827b7307970b13c58991b810b6309','server',NULL,NULL);
CREATE TABLE sessions (
	token_hash VARCHAR(64) NOT NULL, 
	account_id INTEGER NOT NULL, 
	label VARCHAR(120) DEFAULT '' NOT NULL, 
	created_at FLOAT NOT NULL, 
	seen_at FLOAT NOT NULL, 
	PRIMARY KEY (token_hash), 
	FOREIGN KEY(account_id) REFERENCES accounts (id) ON DELETE CASCADE
);
CREATE TABLE turns (
	room_id INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	seq INTEGER NOT NULL, 
	since FLOAT NOT NULL, 
	deadline FLOAT, 
	late_at FLOAT, 
	claimed_by VARCHAR(16), 
	claim_until FLOAT, 
	PRIMARY KEY (room_id, seat), 
	FOREIGN KEY(room_id) REFERENCES rooms (id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX ix_rooms_code ON rooms (code);
CREATE INDEX ix_rooms_status ON rooms (status);
CREATE INDEX ix_seats_room_id ON seats (room_id);
CREATE INDEX ix_seats_token_hash ON seats (token_hash);
CREATE INDEX ix_chat_room_id ON chat (room_id);
CREATE INDEX ix_presence_process ON presence (process);
CREATE INDEX ix_sessions_account_id ON sessions (account_id);
CREATE INDEX ix_passkeys_account_id ON passkeys (account_id);
CREATE INDEX ix_challenges_expires_at ON challenges (expires_at);
CREATE INDEX ix_rated_results_pool ON rated_results (pool);
CREATE INDEX ix_seats_account_id ON seats (account_id);
CREATE INDEX ix_turns_deadline ON turns (deadline);
COMMIT;
