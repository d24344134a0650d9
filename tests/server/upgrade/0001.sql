BEGIN TRANSACTION;
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
INSERT INTO "actions" VALUES(1,1,0,'{"type":"roll","keep":[1,2,4]}','human',1.79661032678260231022e+09);
INSERT INTO "actions" VALUES(1,2,0,'{"type":"roll","keep":[2,3,4]}','human',1.79661032679520297049e+09);
INSERT INTO "actions" VALUES(1,3,1,'{"type":"roll","keep":[0]}','human',1.79661032680320024491e+09);
INSERT INTO "actions" VALUES(1,4,1,'{"type":"roll","keep":[3,4]}','human',1.79661032680636668207e+09);
INSERT INTO "actions" VALUES(1,5,0,'{"type":"roll","keep":[1,2,3,4]}','human',1.79661032681145882601e+09);
INSERT INTO "actions" VALUES(1,6,0,'{"type":"roll","keep":[1,3,4]}','human',1.79661032681501269337e+09);
INSERT INTO "actions" VALUES(1,7,0,'{"type":"take","combination":"three-of-a-kind","source":"plate"}','human',1.79661032682669019695e+09);
INSERT INTO "actions" VALUES(1,8,1,'{"type":"roll","keep":[0,2,3,4]}','human',1.79661032682777643204e+09);
INSERT INTO "actions" VALUES(1,9,1,'{"type":"roll","keep":[0,3,4]}','human',1.79661032682873272889e+09);
INSERT INTO "actions" VALUES(2,1,0,'{"type":"freeze","dice":[0,1,2,3]}','human',1.79661032748418712616e+09);
INSERT INTO "actions" VALUES(2,2,0,'{"type":"freeze","dice":[0,1,2,3]}','human',1.7966103274852981567e+09);
INSERT INTO "actions" VALUES(2,3,1,'{"type":"rethrow"}','human',1.79661032748607230186e+09);
INSERT INTO "actions" VALUES(2,4,1,'{"type":"freeze","dice":[0,1,2,3]}','human',1.79661032748679566376e+09);
INSERT INTO "actions" VALUES(2,5,1,'{"type":"rethrow"}','human',1.79661032748743653298e+09);
INSERT INTO "actions" VALUES(2,6,1,'{"type":"rethrow"}','human',1.79661032748816037185e+09);
INSERT INTO "actions" VALUES(2,7,1,'{"type":"rethrow"}','human',1.7966103274888007641e+09);
INSERT INTO "actions" VALUES(3,1,0,'{"type":"book","category":"6-6-6"}','human',1.79661032892342829706e+09);
INSERT INTO "actions" VALUES(3,2,1,'{"type":"book","category":"two-triplets"}','human',1.79661032893817782397e+09);
INSERT INTO "actions" VALUES(3,3,0,'{"type":"book","category":"two-triplets"}','human',1.79661032894871211052e+09);
INSERT INTO "actions" VALUES(3,4,1,'{"type":"set-aside","dice":[0,5]}','human',1.79661032895464539528e+09);
INSERT INTO "actions" VALUES(3,5,1,'{"type":"book","category":"three-pairs"}','human',1.79661032895847463603e+09);
CREATE TABLE alembic_version (
	version_num VARCHAR(32) NOT NULL, 
	CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);
INSERT INTO "alembic_version" VALUES('0001');
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
	updated_at FLOAT NOT NULL, 
	PRIMARY KEY (id)
);
INSERT INTO "rooms" VALUES(1,'nNEdRl7K3xArx4vS','dice-duel','{"mode": "multi"}','{"hints": false, "odds": false, "spectators": true, "bot_pace": 0.0, "takeover_after": null, "turn_clock": null, "takeover_bot": "", "idle_close": 86400}',0,'playing','42200725225346145618307492112409856747','3fc2b907e0301999f29677f4c4fdc03d051195a5ad22292c55e730b35e1d5283','6234600cbc09e44a1a9ff3aeb42dbe844f5ccbaef5c24e5513b5a6a46af7d806',9,NULL,'',1.79661032614049291609e+09,1.79661032682873272889e+09);
INSERT INTO "rooms" VALUES(2,'LS48f4msPndgW9db','decathlon','{"variant": "points", "events": ["100m", "long-jump"]}','{"hints": false, "odds": false, "spectators": true, "bot_pace": 0.0, "takeover_after": null, "turn_clock": null, "takeover_bot": "", "idle_close": 86400}',0,'playing','95695863779570856095907572217798399876','338aa9a2f6b112e66d3806f01bb4a132721e61f10fa6bb5e8c84601f12f64d21','7bf702110f2a2324be22bb5289ea478bf674640ba4d9456b2a77f1a24586f6f0',7,NULL,'',1.7966103269677741528e+09,1.7966103274888007641e+09);
INSERT INTO "rooms" VALUES(3,'C9S2N9s_mCstJc0Q','wurfeltod','{}','{"hints": false, "odds": false, "spectators": true, "bot_pace": 0.0, "takeover_after": null, "turn_clock": null, "takeover_bot": "", "idle_close": 86400}',0,'playing','238821422022833351997256667704487752870','0e3eed7c76fe251c2de1857669d208c0b0527ca18c2d9af3ccbff30b349388ad','ed4b16f954b3ff33db07232161c76c885becb0e97806b487a0445d2921198771',5,NULL,'',1.79661032754440975187e+09,1.79661032895847463603e+09);
CREATE TABLE seats (
	id INTEGER NOT NULL, 
	room_id INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	kind VARCHAR(8) NOT NULL, 
	bot VARCHAR(40) NOT NULL, 
	name VARCHAR(80) NOT NULL, 
	token_hash VARCHAR(64), 
	away_since FLOAT, 
	PRIMARY KEY (id), 
	UNIQUE (room_id, seat), 
	FOREIGN KEY(room_id) REFERENCES rooms (id) ON DELETE CASCADE
);
INSERT INTO "seats" VALUES(1,1,0,'human','','Old0','7de1756671a69e6638340b6a216d4653b8db43447cf5ca3648430a770e5c651c',1.79661032682953047748e+09);
INSERT INTO "seats" VALUES(2,1,1,'human','','Old1','d9514c57c129dd75e0001bc26cd1823d9fd79b25301740fff0b1986f7a738eb6',1.79661032683128952984e+09);
INSERT INTO "seats" VALUES(3,2,0,'human','','Old0','351788d1a76507e22004e3c4181c38ba04b4731a16caf0fa8ef9766c3027ae61',1.79661032748946785926e+09);
INSERT INTO "seats" VALUES(4,2,1,'human','','Old1','ebbe06ea1a490cb12ecdf63e53ee6077333912794937d4ae00ed16594d952a7a',1.79661032749065923685e+09);
INSERT INTO "seats" VALUES(5,3,0,'human','','Old0','a7fd576c646ee6ccbf14f6f4cb5a6494456e52f39daf82b13c93860f8d5cba23',1.79661032896215200425e+09);
INSERT INTO "seats" VALUES(6,3,1,'human','','Old1','4d7f45cc27ecd5eab7214b4bdc4a9185c4f038cdb07dc3969401819574e57471',1.79661032897477149963e+09);
CREATE UNIQUE INDEX ix_rooms_code ON rooms (code);
CREATE INDEX ix_rooms_status ON rooms (status);
CREATE INDEX ix_seats_room_id ON seats (room_id);
CREATE INDEX ix_seats_token_hash ON seats (token_hash);
CREATE INDEX ix_chat_room_id ON chat (room_id);
COMMIT;
